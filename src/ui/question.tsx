/**
 * The question line(s) every prompt starts with: a mark (`?` while asking, `✓`/`✗` once answered) and the
 * question, wrapped in the terminal's width under its own first word (a hanging indent), never beside the
 * choices: a long question at 80 or 50 columns reads as whole lines above them, not squeezed into a left column.
 */
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';

/** Cells the choices and the entry line are indented by: the width of the mark and its space. */
export const ANSWER_INDENT = 2;

export interface QuestionProps {
  mark: string;
  markColor: string;
  message: string;
  /** Shown after the question in the same wrapped text (the answer, once given). */
  children?: ReactNode;
}

/** The mark, then the question (and `children`) wrapped in what is left of the width. */
export function Question({ mark, markColor, message, children }: QuestionProps) {
  return (
    <Box>
      <Text color={markColor}>{mark} </Text>
      <Box flexShrink={1}>
        <Text>
          {message}
          {children}
        </Text>
      </Box>
    </Box>
  );
}
