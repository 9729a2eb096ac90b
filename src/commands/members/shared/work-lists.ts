/**
 * The members' work list on the dashboard (commands/shared/work-lists.ts): members waiting for approval, oldest
 * first; the keys are the members' own (memberKeys).
 */
import type { Member } from '../../../api/schemas/member.js';
import { andFilters } from '../../shared/browse.js';
import { uiActions } from '../../shared/ui-actions.js';
import { collect, type WorkLists, workListPane } from '../../shared/work-lists.js';
import { memberKeys } from './transitions.js';
import { MEMBER_VIEW, memberName } from './view.js';

/** The pane `members`: members to approve. */
export const workLists: WorkLists = async (setting) => {
  const { ctx, api } = setting;
  const actions = uiActions(ctx, api, await memberKeys());
  return [
    {
      events: ['member'],
      pane: workListPane<Member>(setting, {
        id: 'members',
        title: 'Members to approve',
        view: MEMBER_VIEW,
        columns: [
          { key: 'name', get: memberName, min: 12 },
          { key: 'loginEmail', header: 'EMAIL', min: 16 },
          { key: 'status', fit: 'whole' },
          { key: 'createdDate', header: 'JOINED', fit: 'whole', priority: 1 },
          { key: 'id', id: true, priority: 2 },
        ],
        read: (where, params) => collect(ctx, api, MEMBER_VIEW, MEMBER_VIEW.query, { filter: andFilters({ status: 'PENDING' }, where), params, sort: [{ fieldName: 'createdDate', order: 'ASC' }] }),
        actions,
      }),
    },
  ];
};
