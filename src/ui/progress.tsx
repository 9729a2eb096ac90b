/** The progress bar view: `title [█████░░░░░] done/total pct rate ETA failed`. Formatting is in progress-state.ts. */
import { Box, Text } from 'ink';
import { barCells, barWidth, progressLabel, type ProgressState } from './progress-state.js';

export function Progress({ state, columns }: { state: ProgressState; columns: number }) {
  const width = barWidth(columns, state);
  const { filled, empty } = barCells(state.done, state.total, width);
  return (
    <Box>
      <Text bold>{state.title} </Text>
      <Text color={state.failed > 0 ? 'yellow' : 'green'}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(empty)}</Text>
      <Text> {progressLabel(state)}</Text>
    </Box>
  );
}
