import { ADMIN_DELIVERY_SUCCESS_EXAMPLES } from './admin-delivery-examples';
import { CHAT, INBOUND_MESSAGE, OUTBOUND_MESSAGE } from './examples';

/**
 * Examples of the admin API, by operationId (checked against the contract like the bot ones).
 * Operations without an entry get a synthesised example.
 */

const T0 = '2026-02-20T08:00:00.000Z';
const T1 = '2026-03-02T09:00:00.000Z';

const account = {
  id: 1,
  name: 'Acme Retail',
  default_team_id: 673,
  created_at: T0,
  admins: [{ email: 'ops@acme.example', is_platform_admin: true }],
};
const profile = {
  email: 'ops@acme.example',
  is_platform_admin: true,
  account: { id: 1, name: 'Acme Retail', default_team_id: 673 },
  session_expires_at: '2026-03-02T21:00:00.000Z',
};
const team = {
  id: 672,
  name: 'Virtual Agents',
  auto_assign: true,
  skills: [
    { id: 11, name: 'billing' },
    { id: 12, name: 'returns' },
  ],
  member_counts: { agent: 0, manager: 1, virtual_agent: 1, total: 2 },
  created_at: T0,
  updated_at: T1,
};
const skill = { id: 11, name: 'billing', team_id: 672, team_name: 'Virtual Agents' };
const user = {
  id: 31,
  kind: 'agent',
  login_id: 'maria.lopez',
  name: 'María López',
  email: 'maria.lopez@acme.example',
  availability: 'available',
  capacity: 3,
  enabled: true,
  team_ids: [673],
  skills: [{ id: 21, name: 'spanish', team_id: 673 }],
  custom_attributes: { language: 'es' },
  created_at: T0,
  updated_at: T1,
};
const virtualAgent = {
  id: 40,
  login_id: 'va-billing-bot',
  name: 'Billing bot',
  description: 'Answers billing questions and issues refunds',
  enabled: true,
  webhook_url: 'https://bot.acme.example/va/events',
  webhook_headers: { 'x-bot-tenant': 'acme' },
  subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
  team_id: 672,
  team_name: 'Virtual Agents',
  skills: ['billing'],
  custom_attributes: {},
  fallback_team_id: 673,
  fallback_skill: 'billing',
  api_key_prefix: 'vak_Qm4x',
  previous_api_key_valid_until: null,
  previous_signing_secret_valid_until: '2026-03-03T09:14:00.000Z',
  created_at: T0,
  updated_at: T1,
};
const asset = { id: 3101, channel: 'livechat', name: 'Website chat', address: 'app-7f3e21', created_at: T0 };
const rule = {
  id: 5,
  name: 'Billing questions to the bot',
  position: 10,
  enabled: true,
  conditions: [
    { field: 'channel', op: 'in', value: ['livechat', 'abc'] },
    { field: 'route_params.topic', op: 'equals', value: 'billing' },
  ],
  team_id: 672,
  team_name: 'Virtual Agents',
  skill: 'billing',
  created_at: T0,
  updated_at: T1,
};
const deliveredEvent = {
  id: 901,
  transaction_id: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  event_type: 'chat.assigned',
  virtual_agent_login_id: 'va-billing-bot',
  seq: 1,
  status: 'delivered',
  attempt_count: 2,
  next_attempt_at: '2026-03-02T09:14:08.310Z',
  last_error: null,
  created_at: '2026-03-02T09:14:07.140Z',
  delivered_at: '2026-03-02T09:14:08.522Z',
  failed_at: null,
  body: { event_type: 'chat.assigned', channel: 'livechat', chat_id: CHAT.chat_id, transaction_id: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
  attempts: [
    {
      attempt_number: 1,
      started_at: '2026-03-02T09:14:07.301Z',
      duration_ms: 5003,
      http_status: null,
      error: 'timeout after 5000 ms',
      response_excerpt: null,
    },
    {
      attempt_number: 2,
      started_at: '2026-03-02T09:14:08.310Z',
      duration_ms: 212,
      http_status: 200,
      error: null,
      response_excerpt: '{"ok":true}',
    },
  ],
};

export const ADMIN_SUCCESS_EXAMPLES: Record<string, unknown> = {
  adminLogin: profile,
  adminLogout: null,
  adminMe: profile,
  adminListAccounts: [account],
  adminCreateAccount: {
    ...account,
    id: 2,
    name: 'Globex Support',
    default_team_id: null,
    admins: [{ email: 'admin@globex.example', is_platform_admin: false }],
  },
  adminListTeams: [team],
  adminCreateTeam: {
    ...team,
    id: 674,
    name: 'Returns',
    auto_assign: false,
    skills: [{ id: 13, name: 'returns' }],
    member_counts: { agent: 0, manager: 0, virtual_agent: 0, total: 0 },
  },
  adminUpdateTeam: team,
  adminAddSkill: skill,
  adminRemoveSkill: null,
  adminListSkills: [skill, { id: 21, name: 'spanish', team_id: 673, team_name: 'Customer care' }],
  adminListUsers: [user],
  adminCreateUser: user,
  adminUpdateUser: { ...user, availability: 'unavailable' },
  adminListVirtualAgents: [virtualAgent],
  adminGetVirtualAgent: virtualAgent,
  adminCreateVirtualAgent: {
    ...virtualAgent,
    api_key: 'vak_Qm4xT1rZ8bN2cV6yH0wL5pK9sJ3dF7gA2eU1iO4nB8',
    signing_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
  adminUpdateVirtualAgent: { ...virtualAgent, subscriptions: ['chat.assigned', 'message.received'] },
  adminRotateApiKey: {
    id: 40,
    api_key: 'vak_Zp7wR2nX5cM8bV1tL4kJ9hG6fD3sA0qW2eR5tY8uI1',
    api_key_prefix: 'vak_Zp7w',
    previous_valid_until: '2026-03-03T09:14:00.000Z',
  },
  adminRotateSigningSecret: {
    id: 40,
    signing_secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    previous_valid_until: '2026-03-03T09:14:00.000Z',
  },
  adminListAuditEntries: {
    entries: [
      {
        id: 912,
        at: T1,
        admin_email: 'ops@acme.example',
        action: 'PATCH /api/admin/virtual-agents/:id',
        target_id: '40',
        fields: ['enabled'],
        values: { enabled: false },
        http_status: 200,
        client_address: '203.0.113.24',
        trxid: '5d1c9e7a-2b4f-4a8e-9c3d-7e6f5a4b3c2d',
      },
    ],
    next_cursor: null,
  },
  adminListAssets: [asset],
  adminCreateAsset: asset,
  adminListRoutingRules: [rule],
  adminCreateRoutingRule: rule,
  adminUpdateRoutingRule: { ...rule, enabled: false },
  adminDeleteRoutingRule: null,
  adminSetDefaultTeam: { default_team_id: 673, team_name: 'Customer care' },
  adminListChats: { chats: [{ ...CHAT, messages: [OUTBOUND_MESSAGE] }], next_cursor: null },
  adminGetChat: { ...CHAT, events: [deliveredEvent] },
  adminPostMessage: {
    transid: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9',
    type: 'announcement',
    text: 'Customer is a VIP: refund without asking for a receipt',
    author: 'admin:ops@acme.example',
    timestamp: T1,
  },
  adminRedeliverEvent: null,
  ...ADMIN_DELIVERY_SUCCESS_EXAMPLES,
};

export const ADMIN_REQUEST_EXAMPLES: Record<string, unknown> = {
  adminLogin: { email: 'ops@acme.example', password: 'correct-horse-battery-staple' },
  adminCreateAccount: { name: 'Globex Support', admin_email: 'admin@globex.example', admin_password: 'a-long-first-password' },
  adminCreateTeam: { name: 'Returns', auto_assign: false, skills: ['returns'] },
  adminUpdateTeam: { auto_assign: true },
  adminAddSkill: { name: 'billing' },
  adminCreateUser: {
    kind: 'agent',
    login_id: 'maria.lopez',
    name: 'María López',
    email: 'maria.lopez@acme.example',
    availability: 'available',
    capacity: 3,
    team_ids: [673],
    skill_ids: [21],
    custom_attributes: { language: 'es' },
  },
  adminUpdateUser: { availability: 'unavailable' },
  adminCreateVirtualAgent: {
    name: 'Billing bot',
    description: 'Answers billing questions and issues refunds',
    webhook_url: 'https://bot.acme.example/va/events',
    webhook_headers: { 'x-bot-tenant': 'acme' },
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
    team_id: 672,
    skills: ['billing'],
    fallback_team_id: 673,
    fallback_skill: 'billing',
  },
  adminUpdateVirtualAgent: { subscriptions: ['chat.assigned', 'message.received'] },
  adminRotateApiKey: { mode: 'overlap' },
  adminRotateSigningSecret: { mode: 'overlap' },
  adminCreateAsset: { channel: 'livechat', name: 'Website chat', address: 'app-7f3e21' },
  adminCreateRoutingRule: {
    name: 'Billing questions to the bot',
    conditions: rule.conditions,
    team_id: 672,
    skill: 'billing',
    position: 10,
  },
  adminUpdateRoutingRule: { enabled: false },
  adminSetDefaultTeam: { team_id: 673 },
  adminPostMessage: { type: 'inbound', text: INBOUND_MESSAGE.text },
};
