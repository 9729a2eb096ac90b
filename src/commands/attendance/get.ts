/** `sitectl attendance get ID`: one attendance, with its booking's label on a terminal. */
import { attendance } from '../../api/attendance.js';
import { NotFoundError } from '../../core/errors.js';
import { getVerb } from '../shared/verbs.js';
import { ATTENDANCE_VIEW } from './shared/view.js';

export const { register, run } = getVerb({
  view: ATTENDANCE_VIEW,
  description: 'Show one attendance',
  fetch: async (api, id, signal) => {
    const { attendance: found } = await attendance.getAttendance(api, { attendanceId: id }, { signal });
    if (!found) throw new NotFoundError(`attendance ${id} was not found`, "'attendance list' shows the ids");
    return found;
  },
});
