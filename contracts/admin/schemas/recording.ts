import { z } from 'zod';
import { KEY_RULE, named, text } from '../../common';
import { CHANNELS } from '../../enums';

/**
 * The recording format (JSON Lines, one chat a line), version 1. docs/guide/replay.md describes it;
 * an export writes it, a person may write it by hand, a replay reads it and writes its results in
 * it too (each turn's `bot` then says what the bot under test did). Unknown fields are refused, so
 * a typo in a hand-written file is named rather than ignored.
 */
const RECORDING_FORMAT = 'va-chat-recording';
const RECORDING_VERSION = 1;

const short = () => text().max(4096);
/** A custom field's value, as `other_details` holds them. */
const fieldValue = z.union([text().max(4096), z.number(), z.boolean()]).nullable();
const fields = () => z.record(short(), fieldValue).describe(`Custom fields (other_details): keys up to 4096 characters; ${KEY_RULE}`);

/** A message the customer sends: text, an attachment, or the answer to quick replies (livechat). */
const recordedCustomerMessageSchema = z
  .object({
    text: text().max(10_000).optional(),
    attachment: z
      .object({ type: z.enum(['image', 'audio', 'video', 'file']), url: text().url().max(2048) })
      .strict()
      .optional(),
    quick_reply_response: z
      .object({
        options: z
          .array(z.object({ title: short(), payload: short().optional() }).strict())
          .min(1)
          .max(20),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((m) => m.text !== undefined || m.attachment !== undefined || m.quick_reply_response !== undefined, {
    message: 'a customer message needs text, an attachment or a quick_reply_response',
  });
export type RecordedCustomerMessage = z.infer<typeof recordedCustomerMessageSchema>;

const quickReplySchema = z.object({ title: short(), payload: short() }).strict();

/** One thing the bot did, in the order it did them. */
const botActionSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('message'),
      text: text().max(10_000).default(''),
      quick_replies: z.array(quickReplySchema).max(20).optional(),
      attachment: z
        .object({ type: text().max(20), url: text().max(2048) })
        .strict()
        .optional(),
    })
    .strict(),
  z.object({ type: z.literal('typing') }).strict(),
  z.object({ type: z.literal('tags'), tags: z.array(short()).max(100) }).strict(),
  z.object({ type: z.literal('custom_fields'), fields: fields() }).strict(),
  z.object({ type: z.literal('transfer'), team: short(), skill: short().nullable().default(null) }).strict(),
  z.object({ type: z.literal('close'), outcome: short().nullable().default(null) }).strict(),
]);
export type BotAction = z.infer<typeof botActionSchema>;

/** What the bot did after a turn's customer messages, until it finished (replied and went quiet, or let the chat go). */
const botTurnSchema = z
  .object({
    actions: z.array(botActionSchema).max(200),
    /** From the customer's last message to the bot's first action; null when it did nothing. */
    latency_ms: z.number().int().min(0).nullable().optional(),
  })
  .strict();
export type BotTurn = z.infer<typeof botTurnSchema>;

const recordedTurnSchema = z
  .object({
    customer: z.array(recordedCustomerMessageSchema).min(1).max(50),
    /** Absent: not recorded (a hand-written scenario), so a diff against the recording skips it. Null: the turn was never sent (the bot had let the chat go). */
    bot: botTurnSchema.nullable().optional(),
  })
  .strict();

/** One line: one chat. */
export const recordingLineSchema = z
  .object({
    format: z.literal(RECORDING_FORMAT),
    version: z.literal(RECORDING_VERSION),
    /** The chat's name in the recording (an export uses the chat_id); unique in a file. */
    id: text().min(1).max(200),
    channel: z.enum(CHANNELS),
    customer: z.object({ destination_id: text().min(1).max(200), name: text().max(200).default('') }).strict(),
    subject: text().max(1000).optional(),
    skill: short().optional(),
    /** The chat's tags and custom fields (`other_details`) when it reached the bot. */
    tags: z.array(short()).max(100).optional(),
    custom_fields: fields().optional(),
    turns: z.array(recordedTurnSchema).min(1).max(200),
    /**
     * The kinds of bot action the recording saw (default: all). An export from the transcript sees
     * messages, transfers and closes only, so a diff against it leaves typing, tags and custom fields out.
     */
    recorded_actions: z.array(z.enum(['message', 'typing', 'tags', 'custom_fields', 'transfer', 'close'])).optional(),
    /** How the chat stood at the end (an export reads it from the chat; a replay from its sandbox chat). */
    end: z
      .object({
        status: z.enum(['queued', 'picked', 'onhold', 'closed']),
        team: short().nullable(),
        outcome: short().nullable(),
        tags: z.array(short()),
        custom_fields: fields(),
      })
      .strict()
      .optional(),
    /** Set on a replay's results: which run and sandbox chat. */
    replay: z
      .object({ run_id: text(), chat_id: text().nullable(), seq: z.number().int().min(0), error: text().optional() })
      .strict()
      .optional(),
  })
  .strict();
export type RecordingLine = z.infer<typeof recordingLineSchema>;
export type RecordingLineInput = z.input<typeof recordingLineSchema>;

/** A short recorded chat, as the guide shows it. */
export const RECORDING_LINE_EXAMPLE: RecordingLineInput = {
  format: 'va-chat-recording',
  version: 1,
  id: 'refund-after-greeting',
  channel: 'livechat',
  customer: { destination_id: 'lc_a81f3b77', name: 'Dana Whitfield' },
  turns: [
    { customer: [{ text: 'Hello' }], bot: { actions: [{ type: 'message', text: 'Hello! How can I help?' }], latency_ms: 180 } },
    {
      customer: [{ text: 'I want a refund for order 4711' }],
      bot: {
        actions: [
          { type: 'message', text: 'A person from our team decides on refunds: connecting you now.' },
          { type: 'transfer', team: 'Support', skill: null },
        ],
        latency_ms: 210,
      },
    },
  ],
};
named('RecordingLine', recordingLineSchema, RECORDING_LINE_EXAMPLE);
