import { z } from 'zod';
import { isoDateTime, named, text } from '../../common';

/** The documented sizes of a handover's context (the guide's "Handover" page repeats them). */
const HANDOVER_LIMITS = { reason: 200, summary: 2000, intent: 100, fieldKeys: 30, fieldKey: 64, fieldValue: 500 } as const;

const fieldsSchema = z
  .record(text().min(1).max(HANDOVER_LIMITS.fieldKey), text().max(HANDOVER_LIMITS.fieldValue))
  .refine((f) => Object.keys(f).length <= HANDOVER_LIMITS.fieldKeys, `at most ${HANDOVER_LIMITS.fieldKeys} fields`)
  .describe(
    `What the bot collected, as key/values (up to ${HANDOVER_LIMITS.fieldKeys} keys of up to ${HANDOVER_LIMITS.fieldKey} characters, values up to ${HANDOVER_LIMITS.fieldValue})`,
  );

/**
 * What a bot tells the person who takes the chat over. Shown to people (workspace, console), never
 * to the customer.
 */
export const handoverContextSchema = z
  .object({
    reason: text()
      .trim()
      .min(1)
      .max(HANDOVER_LIMITS.reason)
      .optional()
      .describe('Why the bot hands over ("asked for a refund over the limit")'),
    summary: text().trim().min(1).max(HANDOVER_LIMITS.summary).optional().describe('What happened so far, for the person to read first'),
    intent: text()
      .trim()
      .min(1)
      .max(HANDOVER_LIMITS.intent)
      .optional()
      .describe('What the customer wants, as the bot understood it ("refund")'),
    fields: fieldsSchema.optional(),
  })
  .strict()
  .describe(
    'Context for the person who takes the chat: shown on the chat in the agent workspace (before the transcript), on its page in the console and in its events; never to the customer.',
  );
named('HandoverContext', handoverContextSchema, {
  reason: 'Refund above what the bot may grant',
  summary: 'Order 8841 arrived damaged; the customer sent a photo and wants a refund of 240 EUR.',
  intent: 'refund',
  fields: { order_id: '8841', amount: '240 EUR' },
});
export type HandoverContext = z.infer<typeof handoverContextSchema>;

export const HANDOVER_SOURCES = ['transfer', 'assignee', 'taken_over', 'bot_down', 'reply_timeout', 'person_request'] as const;

/** The card people see: the chat's latest handover from a virtual agent. */
export const handoverCardSchema = z.object({
  source: z
    .enum(HANDOVER_SOURCES)
    .describe(
      'How the chat left the bot: its transfer, its PATCH naming a person, the bot-down fallback, the reply budget, or the customer\'s "Talk to a person"',
    ),
  from: z.string().describe('Login ID of the virtual agent that handed over'),
  at: isoDateTime,
  reason: z.string().nullable(),
  summary: z.string().nullable(),
  intent: z.string().nullable(),
  fields: z.record(z.string()),
  handovers: z.number().int().describe('How many times this virtual agent has handed this chat to people'),
  max_handovers: z.number().int().describe("The virtual agent's max_handovers_per_chat"),
  can_hand_back: z.boolean().describe('false once `handovers` reached `max_handovers`: the chat stays with people'),
  handed_back: z
    .object({ at: isoDateTime, by: z.string(), note: z.string().nullable() })
    .nullable()
    .describe('Set once a person handed the chat back to the virtual agent'),
});
export type HandoverCard = z.infer<typeof handoverCardSchema>;
