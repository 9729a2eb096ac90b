/** The confirm prompt: input hook (keys -> reducer actions) and view. State logic lives in confirm-state.ts. */
import { useEffect, useReducer } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { confirmKeyAction, confirmReducer, initialConfirmState, type ConfirmState } from './confirm-state.js';

/** Feeds key presses into the confirm reducer while the prompt is pending. */
export function useConfirm(defaultValue: boolean): ConfirmState {
  const [state, dispatch] = useReducer(confirmReducer, defaultValue, initialConfirmState);
  useInput(
    (input, key) => {
      const action = confirmKeyAction(input, key);
      if (action) dispatch(action);
    },
    { isActive: state.status === 'pending' },
  );
  return state;
}

export interface ConfirmProps {
  message: string;
  defaultValue: boolean;
  /** Called once with the answer, or `undefined` when the prompt was cancelled. */
  onDone: (answer: boolean | undefined) => void;
}

export function Confirm({ message, defaultValue, onDone }: ConfirmProps) {
  const state = useConfirm(defaultValue);
  const { exit } = useApp();
  useEffect(() => {
    if (state.status === 'pending') return;
    onDone(state.status === 'answered' ? state.value : undefined);
    exit();
  }, [state, onDone, exit]);

  if (state.status !== 'pending') {
    const accepted = state.status === 'answered' && state.value;
    return (
      <Box>
        <Text color={accepted ? 'green' : 'red'}>{accepted ? '✓' : '✗'} </Text>
        <Text>{message} </Text>
        <Text bold>{state.status === 'cancelled' ? 'canceled' : state.value ? 'yes' : 'no'}</Text>
      </Box>
    );
  }
  return (
    <Box>
      <Text color="cyan">? </Text>
      <Text>{message} </Text>
      <Text inverse={state.value}> Yes </Text>
      <Text> / </Text>
      <Text inverse={!state.value}> No </Text>
      <Text dimColor>  (y/n, Enter to choose)</Text>
    </Box>
  );
}
