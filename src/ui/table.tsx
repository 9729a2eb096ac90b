/** A static table: bold header, one line per row. Layout is computed in table-layout.ts. */
import { Box, Text } from 'ink';
import { layoutTable, type TableColumn, type TableRow } from './table-layout.js';

export function Table({ columns, rows, width }: { columns: TableColumn[]; rows: TableRow[]; width: number }) {
  const { header, body } = layoutTable(columns, rows, width);
  return (
    <Box flexDirection="column">
      <Text bold>{header.join('  ').trimEnd()}</Text>
      {body.map((cells, i) => (
        <Text key={i}>{cells.join('  ').trimEnd()}</Text>
      ))}
    </Box>
  );
}
