import type { MessageInput } from '@/contracts/bot/schemas/message';
import type { Channel } from '@/contracts/enums';
import { ApiError, describeFields, type FieldError } from '@/platform/errors';

/** What is stored in `messages.body`: the input with the spec's sample aliases resolved. */
export type MessageBody = Omit<MessageInput, 'type' | 'timestamp' | 'listpicker_response' | 'timepicker_response' | 'abc_sub_type'> & {
  abc_sub_type?: 'text' | 'listpicker' | 'timepicker';
};

const CONTENT_FIELDS = [
  'text',
  'attachment',
  'template_name',
  'quick_replies',
  'quick_reply_response',
  'list_picker_response',
  'time_picker_response',
  'wab_interactive_response',
] as const;

/**
 * Checks a message against the spec's table of valid shapes for its direction and the chat's
 * channel, and resolves aliases. Every problem is reported at once, each naming its field (2020).
 */
export function normalizeMessage(input: MessageInput, channel: Channel, prefix = ''): MessageBody {
  const { type, timestamp: _ts, listpicker_response, timepicker_response, abc_sub_type, ...rest } = input;
  const errors: FieldError[] = [];
  const f = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const fail = (field: string, message: string) => errors.push({ field: f(field), message });

  if (listpicker_response && rest.list_picker_response)
    fail('listpicker_response', 'send either list_picker_response or listpicker_response, not both');
  if (timepicker_response && rest.time_picker_response)
    fail('timepicker_response', 'send either time_picker_response or timepicker_response, not both');
  const body: MessageBody = { ...rest };
  if (listpicker_response) body.list_picker_response = listpicker_response;
  if (timepicker_response) body.time_picker_response = timepicker_response;
  // The spec keeps every time in UTC: an answer sent with another offset is the same instant, in UTC.
  if (body.time_picker_response) body.time_picker_response = new Date(body.time_picker_response).toISOString();
  if (abc_sub_type) body.abc_sub_type = abc_sub_type.replace('_response', '') as MessageBody['abc_sub_type'];

  const present = CONTENT_FIELDS.filter((k) => body[k] !== undefined);
  if (present.length === 0) fail('text', `a message needs content: one of ${CONTENT_FIELDS.join(', ')}`);

  const only = (field: keyof MessageBody, channels: Channel[], types: string[], label: string) => {
    if (body[field] === undefined) return;
    if (!channels.includes(channel)) fail(String(field), `${label} only on the ${channels.join(' or ')} channel (this chat is ${channel})`);
    else if (!types.includes(type)) fail(String(field), `${label} only on ${types.join(' or ')} messages (this one is ${type})`);
  };
  only('quick_replies', ['livechat'], ['outbound'], 'quick replies are offered');
  only('quick_reply_response', ['livechat'], ['inbound'], 'quick-reply answers come');
  only('list_picker_response', ['abc'], ['inbound'], 'list-picker answers come');
  only('time_picker_response', ['abc'], ['inbound'], 'time-picker answers come');
  only('wab_interactive_response', ['messenger'], ['inbound'], 'interactive template answers come');
  only('template_name', ['abc', 'messenger'], ['outbound'], 'templates are sent');
  only('abc_sub_type', ['abc'], ['inbound'], 'abc_sub_type is used');
  only('livechat_sub_type', ['livechat'], ['inbound', 'outbound'], 'livechat_sub_type is used');
  only('messenger_sub_type', ['messenger'], ['outbound'], 'messenger_sub_type is used');

  if (type === 'announcement') {
    if (!body.text) fail('text', 'an announcement needs text');
    for (const k of present) if (k !== 'text') fail(k, 'an announcement carries text only');
  }

  // Sub types must agree with the content they announce.
  if (body.abc_sub_type === 'listpicker' && !body.list_picker_response)
    fail('list_picker_response', 'required when abc_sub_type is listpicker');
  if (body.abc_sub_type === 'timepicker' && !body.time_picker_response)
    fail('time_picker_response', 'required when abc_sub_type is timepicker');
  if (body.abc_sub_type === 'text' && !body.text) fail('text', 'required when abc_sub_type is text');
  // Both spellings name quick replies in either direction: the spec's value and its samples' one.
  const quickSubType = body.livechat_sub_type === 'quick_replies' || body.livechat_sub_type === 'quick_reply_response';
  if (quickSubType && type === 'outbound' && !body.quick_replies)
    fail('quick_replies', `required when livechat_sub_type is ${body.livechat_sub_type} on an outbound message`);
  if (quickSubType && type === 'inbound' && !body.quick_reply_response)
    fail('quick_reply_response', 'required for an inbound quick-reply answer');
  if (body.livechat_sub_type === 'text' && !body.text) fail('text', 'required when livechat_sub_type is text');
  if (body.messenger_sub_type === 'hsm' && !body.template_name) fail('template_name', 'required when messenger_sub_type is hsm');
  if (body.messenger_sub_type === 'text' && !body.text) fail('text', 'required when messenger_sub_type is text');
  if (body.quick_replies && body.attachment) fail('attachment', 'quick replies cannot carry an attachment');
  const interactive = ['quick_reply_response', 'list_picker_response', 'time_picker_response', 'wab_interactive_response'] as const;
  if (interactive.filter((k) => body[k] !== undefined).length > 1)
    fail('quick_reply_response', 'a message answers one interactive element at most');

  if (errors.length) throw new ApiError(2020, { detail: describeFields(errors), errors });
  // One stored spelling per direction, naming the field that carries the content: an answer is
  // `quick_reply_response`, an offer `quick_replies`.
  if (quickSubType) body.livechat_sub_type = type === 'inbound' ? 'quick_reply_response' : 'quick_replies';
  return body;
}
