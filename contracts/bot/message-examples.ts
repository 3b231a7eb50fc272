import type { Channel } from '../enums';
import { EXAMPLE_QUICK_REPLIES, type MessageInput } from './schemas/message';

/**
 * Named request examples of `POST /chats/{chat_id}/messages`, one per shape a channel takes in
 * each direction (the spec's table of valid messages). The OpenAPI document shows them under the
 * operation's `examples`; a test posts each one to a chat of its channel.
 */
export const POST_MESSAGE_EXAMPLES: Record<string, { summary: string; channel: Channel; value: MessageInput }> = {
  'sms-outbound-text': {
    summary: 'sms (also social1, social2, api): reply with text',
    channel: 'sms',
    value: { type: 'outbound', text: 'Your refund of $42.10 is on its way.' },
  },
  'sms-inbound-text': {
    summary: 'sms: relay a customer message (an integration), emits message.received',
    channel: 'sms',
    value: { type: 'inbound', text: 'Thanks! When will it arrive?' },
  },
  'social1-outbound-attachment': {
    summary: 'social1 (also sms, social2, email, api): text with an attachment',
    channel: 'social1',
    value: {
      type: 'outbound',
      text: 'Here is your receipt',
      attachment: { type: 'file', url: 'https://files.acme.example/receipts/A-10442.pdf' },
    },
  },
  'email-outbound-text': {
    summary: "email: reply (the subject is the chat's)",
    channel: 'email',
    value: { type: 'outbound', text: 'Hello Dana,\n\nwe have refunded the second charge.\n\nAcme support' },
  },
  'livechat-outbound-text': {
    summary: 'livechat: reply with text',
    channel: 'livechat',
    value: { type: 'outbound', livechat_sub_type: 'text', text: 'Sorry about that! Let me check.' },
  },
  'livechat-outbound-quick-replies': {
    summary: 'livechat: offer quick replies (each option with the payload its answer carries back)',
    channel: 'livechat',
    value: {
      type: 'outbound',
      text: 'How did you pay?',
      livechat_sub_type: 'quick_replies',
      quick_replies: EXAMPLE_QUICK_REPLIES,
    },
  },
  'livechat-inbound-quick-reply-answer': {
    summary: "livechat: relay the customer's quick-reply answer (the payload is filled from the offer when left out)",
    channel: 'livechat',
    value: {
      type: 'inbound',
      livechat_sub_type: 'quick_reply_response',
      quick_reply_response: { request_identifier: '3f2b8c1e-6d4a-4e9b-9c7f-1a2b3c4d5e6f', options: [{ title: 'Card' }] },
    },
  },
  'abc-outbound-template': {
    summary: 'abc: send a template',
    channel: 'abc',
    value: { type: 'outbound', template_name: 'order_status_picker' },
  },
  'abc-inbound-list-picker-answer': {
    summary: 'abc: relay a list-picker answer (every item chosen)',
    channel: 'abc',
    value: { type: 'inbound', abc_sub_type: 'listpicker', list_picker_response: ['Blue', 'Large'] },
  },
  'abc-inbound-time-picker-answer': {
    summary: 'abc: relay a time-picker answer (stored in UTC)',
    channel: 'abc',
    value: { type: 'inbound', abc_sub_type: 'timepicker', time_picker_response: '2026-03-04T15:30:00Z' },
  },
  'messenger-outbound-template': {
    summary: 'messenger: send a template (hsm)',
    channel: 'messenger',
    value: { type: 'outbound', messenger_sub_type: 'hsm', template_name: 'order_update' },
  },
  'messenger-inbound-template-answer': {
    summary: 'messenger: relay the answer to an interactive template',
    channel: 'messenger',
    value: {
      type: 'inbound',
      wab_interactive_response: { identifier: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14', title: 'Track my order' },
    },
  },
  'any-announcement': {
    summary: 'any channel: a note for agents and administrators (never sent to the customer), e.g. a handover summary',
    channel: 'livechat',
    value: { type: 'announcement', text: 'Customer was charged twice for A-10442; refund requested.' },
  },
};
