/** The hidden-entry prompt: input hook (keys -> reducer actions) and view. State logic lives in secret-state.ts. */
import { useEffect, useReducer } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { initialSecretState, secretKeyActions, secretReducer } from './secret-state.js';

export interface SecretProps {
  message: string;
  /** Called once with what was typed, or `undefined` when the prompt was cancelled. */
  onDone: (value: string | undefined) => void;
}

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
    return (
      <Box>
        <Text color={state.status === 'submitted' ? 'green' : 'red'}>{state.status === 'submitted' ? '✓' : '✗'} </Text>
        <Text>{message} </Text>
        <Text dimColor>{state.status === 'cancelled' ? 'canceled' : state.line.text ? 'received' : 'none'}</Text>
      </Box>
    );
  }
  return (
    <Box>
      <Text color="cyan">? </Text>
      <Text>{message} </Text>
      <Text>{masked}</Text>
      <Text dimColor>{masked ? '' : '  (hidden; Enter when done)'}</Text>
    </Box>
  );
}
