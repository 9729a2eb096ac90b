/** The hidden-entry prompt: input hook (keys -> reducer actions) and view. State logic lives in secret-state.ts. */
import { useEffect, useReducer } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { ANSWER_INDENT, Question } from './question.js';
import { initialSecretState, secretKeyActions, secretReducer } from './secret-state.js';

export interface SecretProps {
  message: string;
  /** Called once with what was typed, or `undefined` when the prompt was cancelled. */
  onDone: (value: string | undefined) => void;
}

/** The hidden-entry prompt: the question on its own line(s), the masked entry below it; reports once through `onDone`. */
export function Secret({ message, onDone }: SecretProps) {
  const [state, dispatch] = useReducer(secretReducer, initialSecretState);
  useInput(
    (input, key) => {
      for (const action of secretKeyActions(input, key)) dispatch(action);
    },
    { isActive: state.status === 'pending' },
  );
  const { exit } = useApp();
  useEffect(() => {
    if (state.status === 'pending') return;
    onDone(state.status === 'submitted' ? state.line.text : undefined);
    exit();
  }, [state, onDone, exit]);

  const masked = '*'.repeat(Math.min([...state.line.text].length, 64));
  if (state.status !== 'pending') {
    const submitted = state.status === 'submitted';
    return (
      <Question mark={submitted ? '✓' : '✗'} markColor={submitted ? 'green' : 'red'} message={message}>
        {' '}
        <Text dimColor>{state.status === 'cancelled' ? 'canceled' : state.line.text ? 'received' : 'none'}</Text>
      </Question>
    );
  }
  // The question above, the entry (one * a character, or the hint while empty) on its own line below it.
  return (
    <Box flexDirection="column">
      <Question mark="?" markColor="cyan" message={message} />
      <Box marginLeft={ANSWER_INDENT}>{masked ? <Text>{masked}</Text> : <Text dimColor>(hidden; Enter when done)</Text>}</Box>
    </Box>
  );
}
