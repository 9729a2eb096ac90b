/**
 * The one `--notify` declaration (src/commands/shared/notify.ts): the flags as the journal keeps them, the request
 * field they send (the SDK's ParticipantNotification), and what a question says about who is told.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { notifyOption, notifySaying, participantNotification } from '../../../src/commands/shared/notify.js';

describe('--notify', () => {
  it('without --notify: no option, no field, nobody told', () => {
    expect(notifyOption({})).toEqual({});
    expect(participantNotification({})).toEqual({});
    expect(notifySaying({})).toBe('nobody is notified');
  });

  it('with a message and channels: the journal option and the SDK field', () => {
    const o = notifyOption({ notify: 'Sorry', notifyVia: 'sms, EMAIL,sms' });
    expect(o).toEqual({ notify: { message: 'Sorry', channels: 'SMS, EMAIL' } });
    expect(participantNotification(o)).toEqual({ participantNotification: { notifyParticipants: true, message: 'Sorry', metadata: { channels: 'SMS, EMAIL' } } });
    expect(notifySaying(o, 'their customers are')).toBe('their customers are notified by SMS and e-mail ("Sorry")');
  });

  it('bare --notify: notified without a message, by e-mail', () => {
    const o = notifyOption({ notify: true });
    expect(participantNotification(o)).toEqual({ participantNotification: { notifyParticipants: true } });
    expect(notifySaying(o)).toBe('the customer is notified by e-mail');
  });

  it('refuses --notify-via alone, unknown channels and a message over 2,000 characters (exit 2)', () => {
    expect(() => notifyOption({ notifyVia: 'sms' })).toThrow(UserError);
    expect(() => notifyOption({ notify: true, notifyVia: 'fax' })).toThrow(/email, sms or email,sms/);
    expect(() => notifyOption({ notify: 'x'.repeat(2001) })).toThrow(/at most 2000/);
    expect(notifyOption({ notify: 'x'.repeat(2000) }).notify?.message).toHaveLength(2000);
  });
});
