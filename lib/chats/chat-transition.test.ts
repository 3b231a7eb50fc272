import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '@/platform/errors';
import type { Assignee } from './assignment';
import {
  type ChatChange,
  type ChatState,
  type ChatTransition,
  lostControl,
  type PlannedChatEvent,
  transitionChat,
} from './chat-transition';

const TEAM = 10;
const OTHER_TEAM = 20;
const ann: Assignee = { id: 1, loginId: 'ann', kind: 'agent', teamIds: [TEAM] };
const bot: Assignee = { id: 2, loginId: 'bot', kind: 'virtual_agent', teamIds: [OTHER_TEAM] };

const queued: ChatState = { status: 'queued', assigneeId: null, teamId: TEAM, outcome: null };
const pickedByAnn: ChatState = { status: 'picked', assigneeId: ann.id, teamId: TEAM, outcome: null };
const closedByAnn: ChatState = { status: 'closed', assigneeId: ann.id, teamId: TEAM, outcome: 'solved' };
const pickedByBot: ChatState = { status: 'picked', assigneeId: bot.id, teamId: OTHER_TEAM, outcome: null };

const assigned = (to: Assignee): PlannedChatEvent => ({ type: 'chat.assigned', to: to.id });
const closed = (to: Assignee, outcome: string | null): PlannedChatEvent => ({ type: 'chat.closed', to: to.id, outcome });
const unassigned = (
  to: Assignee,
  reason: 'reassigned' | 'requeued' | 'closed' | 'transferred',
  assignee: string | null = null,
): PlannedChatEvent => ({
  type: 'chat.unassigned',
  to: to.id,
  reason,
  assignee,
});

const unchanged = (chat: ChatState): ChatTransition => ({
  ...chat,
  closedAt: 'keep',
  newlyAssigned: null,
  closedFor: null,
  offerToQueue: chat.status === 'queued' && chat.assigneeId === null,
  released: null,
  supersedeFor: null,
  events: [],
});

const cases: [name: string, chat: ChatState, change: ChatChange, expected: ChatTransition][] = [
  ['no status or assignee change keeps the chat as it is', pickedByAnn, {}, unchanged(pickedByAnn)],
  [
    'a new assignee picks a queued chat',
    queued,
    { assignee: ann },
    { ...unchanged(queued), status: 'picked', assigneeId: ann.id, newlyAssigned: ann, offerToQueue: false },
  ],
  [
    'an assignee from another team moves the chat to that team and releases the previous one',
    pickedByAnn,
    { assignee: bot },
    {
      ...unchanged(pickedByAnn),
      assigneeId: bot.id,
      teamId: OTHER_TEAM,
      newlyAssigned: bot,
      released: { userId: ann.id, reason: 'reassigned' },
      supersedeFor: ann.id,
      events: [assigned(bot), unassigned(ann, 'reassigned', 'bot')],
    },
  ],
  ['re-sending the current assignee changes nothing', pickedByAnn, { assignee: ann }, unchanged(pickedByAnn)],
  [
    'an assignee with a status keeps the status sent',
    queued,
    { assignee: ann, status: 'onhold' },
    { ...unchanged(queued), status: 'onhold', assigneeId: ann.id, newlyAssigned: ann, offerToQueue: false },
  ],
  [
    'assignee null re-queues and releases the seat',
    pickedByAnn,
    { assignee: null },
    {
      ...unchanged(pickedByAnn),
      status: 'queued',
      assigneeId: null,
      offerToQueue: true,
      released: { userId: ann.id, reason: 'requeued' },
      supersedeFor: ann.id,
      events: [unassigned(ann, 'requeued')],
    },
  ],
  [
    'status queued unassigns',
    pickedByAnn,
    { status: 'queued' },
    {
      ...unchanged(pickedByAnn),
      status: 'queued',
      assigneeId: null,
      offerToQueue: true,
      released: { userId: ann.id, reason: 'requeued' },
      supersedeFor: ann.id,
      events: [unassigned(ann, 'requeued')],
    },
  ],
  [
    'status queued wins over an assignee sent with it',
    pickedByAnn,
    { status: 'queued', assignee: bot },
    {
      ...unchanged(pickedByAnn),
      status: 'queued',
      assigneeId: null,
      teamId: OTHER_TEAM,
      newlyAssigned: bot,
      offerToQueue: true,
      released: { userId: ann.id, reason: 'requeued' },
      supersedeFor: ann.id,
      events: [assigned(bot), unassigned(ann, 'requeued', 'bot')],
    },
  ],
  [
    'closing sets the outcome and tells the assignee',
    pickedByAnn,
    { status: 'closed', outcome: 'solved' },
    {
      ...unchanged(pickedByAnn),
      status: 'closed',
      outcome: 'solved',
      closedAt: 'set',
      closedFor: ann.id,
      released: { userId: ann.id, reason: 'closed' },
      supersedeFor: ann.id,
      events: [closed(ann, 'solved'), unassigned(ann, 'closed')],
    },
  ],
  [
    'closing without an outcome clears it',
    { ...pickedByAnn, outcome: 'stale' },
    { status: 'closed' },
    {
      ...unchanged(pickedByAnn),
      status: 'closed',
      outcome: null,
      closedAt: 'set',
      closedFor: ann.id,
      released: { userId: ann.id, reason: 'closed' },
      supersedeFor: ann.id,
      events: [closed(ann, null), unassigned(ann, 'closed')],
    },
  ],
  [
    'closing an unassigned chat tells nobody',
    queued,
    { status: 'closed' },
    { ...unchanged(queued), status: 'closed', closedAt: 'set', offerToQueue: false },
  ],
  [
    'a closed chat takes a new outcome without closing again',
    closedByAnn,
    { status: 'closed', outcome: 'spam' },
    { ...unchanged(closedByAnn), outcome: 'spam' },
  ],
  [
    'leaving closed reopens and clears the outcome',
    closedByAnn,
    { status: 'picked' },
    { ...unchanged(closedByAnn), status: 'picked', outcome: null, closedAt: 'clear' },
  ],
  [
    'assignee null on a closed chat unassigns it and leaves it closed',
    closedByAnn,
    { assignee: null },
    { ...unchanged(closedByAnn), assigneeId: null },
  ],
  [
    'a closed chat reopened with a new assignee releases nothing (the seat was free)',
    closedByAnn,
    { status: 'picked', assignee: bot },
    {
      ...unchanged(closedByAnn),
      status: 'picked',
      assigneeId: bot.id,
      teamId: OTHER_TEAM,
      outcome: null,
      closedAt: 'clear',
      newlyAssigned: bot,
      events: [assigned(bot)],
    },
  ],
  ['onhold keeps the assignee', pickedByAnn, { status: 'onhold' }, { ...unchanged(pickedByAnn), status: 'onhold' }],
  [
    'a VA closing the chat itself gets chat.closed only, and its waiting events are dropped',
    pickedByBot,
    { status: 'closed', outcome: 'done', actorUserId: bot.id },
    {
      ...unchanged(pickedByBot),
      status: 'closed',
      outcome: 'done',
      closedAt: 'set',
      closedFor: bot.id,
      released: { userId: bot.id, reason: 'closed' },
      supersedeFor: bot.id,
      events: [closed(bot, 'done')],
    },
  ],
  [
    'a VA re-queuing the chat itself is told chat.unassigned too',
    pickedByBot,
    { status: 'queued', actorUserId: bot.id },
    {
      ...unchanged(pickedByBot),
      status: 'queued',
      assigneeId: null,
      offerToQueue: true,
      released: { userId: bot.id, reason: 'requeued' },
      supersedeFor: bot.id,
      events: [unassigned(bot, 'requeued')],
    },
  ],
  [
    'a VA handing the chat to an agent of another team: the chat moves, the VA is told who has it',
    pickedByBot,
    { assignee: ann, actorUserId: bot.id },
    {
      ...unchanged(pickedByBot),
      assigneeId: ann.id,
      teamId: TEAM,
      newlyAssigned: ann,
      released: { userId: bot.id, reason: 'reassigned' },
      supersedeFor: bot.id,
      events: [unassigned(bot, 'reassigned', 'ann')],
    },
  ],
  [
    'an agent closing a VA’s chat: chat.closed, then chat.unassigned (reason closed)',
    pickedByBot,
    { status: 'closed', actorUserId: ann.id },
    {
      ...unchanged(pickedByBot),
      status: 'closed',
      closedAt: 'set',
      closedFor: bot.id,
      released: { userId: bot.id, reason: 'closed' },
      supersedeFor: bot.id,
      events: [closed(bot, null), unassigned(bot, 'closed')],
    },
  ],
];

describe('transitionChat', () => {
  for (const [name, chat, change, expected] of cases) {
    it(name, () => assert.deepEqual(transitionChat(chat, change), expected));
  }

  const refusals: [name: string, chat: ChatState, change: ChatChange, code: number][] = [
    ['refuses to assign a closed chat without reopening it (2040)', closedByAnn, { assignee: bot }, 2040],
    ['refuses an outcome without status closed (2000)', pickedByAnn, { outcome: 'solved' }, 2000],
    ['refuses an outcome with another status (2000)', pickedByAnn, { status: 'picked', outcome: 'solved' }, 2000],
  ];
  for (const [name, chat, change, code] of refusals) {
    it(name, () =>
      assert.throws(
        () => transitionChat(chat, change),
        (err) => err instanceof ApiError && err.code === code,
      ),
    );
  }
});

describe('lostControl', () => {
  const rows: [name: string, input: Parameters<typeof lostControl>[0], expected: ReturnType<typeof lostControl>][] = [
    [
      'a transfer by the VA itself drops its waiting events and tells it chat.unassigned',
      { previousAssigneeId: bot.id, actorUserId: bot.id, reason: 'transferred', newAssignee: null },
      { supersedeFor: bot.id, events: [unassigned(bot, 'transferred')] },
    ],
    [
      'the bot-down fallback (no actor) does the same',
      { previousAssigneeId: bot.id, actorUserId: null, reason: 'transferred', newAssignee: null },
      { supersedeFor: bot.id, events: [unassigned(bot, 'transferred')] },
    ],
    [
      'a VA closing the chat itself is told nothing more',
      { previousAssigneeId: bot.id, actorUserId: bot.id, reason: 'closed', newAssignee: null },
      { supersedeFor: bot.id, events: [] },
    ],
  ];
  for (const [name, input, expected] of rows) it(name, () => assert.deepEqual(lostControl(input), expected));
});
