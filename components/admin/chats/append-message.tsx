'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import { Field, FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf } from '@/components/shared/errors';
import { adminMessageBodySchema } from '@/contracts/admin/schemas/chat';
import { ATTACHMENT_TYPES } from '@/contracts/enums';

type Values = {
  type: 'inbound' | 'announcement';
  text: string;
  attachment: { type: (typeof ATTACHMENT_TYPES)[number]; url: string };
};
type Body = z.output<typeof adminMessageBodySchema>;

// The contract takes a message with neither text nor attachment and the service refuses it;
// the page says so before sending, beside the text.
const messageSchema = adminMessageBodySchema.refine((b) => b.text !== undefined || b.attachment !== undefined, {
  message: 'Write the text, or give an attachment URL.',
  path: ['text'],
});

const resolver = contractResolver(
  messageSchema,
  (v: Values) => {
    const text = v.text.trim();
    const url = v.attachment.url.trim();
    return { type: v.type, ...(text ? { text } : {}), ...(url ? { attachment: { type: v.attachment.type, url } } : {}) };
  },
  { type: 'choose:who writes', text: 'the text', attachment: 'the attachment', 'attachment.url': 'the attachment URL' },
);

/** Writes into the chat as the customer (to exercise the bot) or as an announcement for agents. */
export function AppendMessage({ chatId, closed }: { chatId: string; closed: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const form = useContractForm<Values, Body>(resolver, {
    type: closed ? 'announcement' : 'inbound',
    text: '',
    attachment: { type: 'image', url: '' },
  });
  const type = form.watch('type');
  // A chat closed while the page is open takes announcements only.
  useEffect(() => {
    if (closed) form.setValue('type', 'announcement');
  }, [closed, form.setValue]);
  const post = tsr.chats.postMessage.useMutation({
    onSuccess: (_res, { body }) => {
      toast.success(body.type === 'inbound' ? 'Customer message added: the assigned bot gets message.received.' : 'Announcement added.');
      form.reset({ type: body.type, text: '', attachment: { type: form.getValues('attachment.type'), url: '' } });
      qc.invalidateQueries({ queryKey: keys.chat(chatId) });
    },
  });
  const failure = failureOf(post.error);
  const err = form.messages(failure);
  const urlError = err('attachment.url') ?? err('attachment');

  return (
    <form
      className="card"
      onSubmit={form.handleSubmit((body) => post.mutate({ params: { chat_id: chatId }, body }))}
      noValidate
      aria-labelledby="append-title"
    >
      <h2 id="append-title">Add a message</h2>
      <FormError failure={failure} placed={['text', 'attachment']} />
      <fieldset className="checks-fieldset">
        <legend>Write as</legend>
        <div className="checks">
          <label>
            <input type="radio" value="inbound" disabled={closed} {...form.register('type')} />
            The customer (inbound)
          </label>
          <label>
            <input type="radio" value="announcement" {...form.register('type')} />
            Announcement (agents and admins only)
          </label>
        </div>
        {closed && <p className="hint">The chat is closed: only announcements can be added.</p>}
      </fieldset>
      <Field id="msg-text" label="Text" error={err('text')}>
        <textarea {...form.bind('text', 'msg-text', { failure })} />
      </Field>
      <div className="grid-2 attach-grid">
        <Field id="msg-attachment-url" label="Attachment URL (optional)" error={urlError}>
          <input {...form.bind('attachment.url', 'msg-attachment-url', { failure })} type="url" placeholder="https://…" />
        </Field>
        <Field id="msg-attachment-type" label="Attachment type">
          <select id="msg-attachment-type" {...form.register('attachment.type')}>
            {ATTACHMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <SubmitButton pending={post.isPending} pendingText="Sending…">
        {type === 'inbound' ? 'Send as customer' : 'Add announcement'}
      </SubmitButton>
    </form>
  );
}
