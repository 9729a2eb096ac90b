/** The confirm prompt: input hook (keys -> reducer actions) and view. State logic lives in confirm-state.ts. */
import { useEffect, useReducer } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { ANSWER_INDENT, Question } from './question.js';
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

/** The yes/no prompt: the question on its own line(s), `Yes / No` below it; reports the answer once through `onDone`. */
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
      <Question mark={accepted ? '✓' : '✗'} markColor={accepted ? 'green' : 'red'} message={message}>
        {' '}
        <Text bold>{state.status === 'cancelled' ? 'canceled' : state.value ? 'yes' : 'no'}</Text>
      </Question>
    );
  }
  // The question above, the choices on their own line below it; the key hint moves under them when the line is narrow.
  return (
    <Box flexDirection="column">
      <Question mark="?" markColor="cyan" message={message} />
      <Box marginLeft={ANSWER_INDENT} flexWrap="wrap">
        <Text inverse={state.value}> Yes </Text>
        <Text> / </Text>
        <Text inverse={!state.value}> No </Text>
        <Box marginLeft={2}>
          <Text dimColor>(y/n, Enter to choose)</Text>
        </Box>
      </Box>
    </Box>
  );
}
