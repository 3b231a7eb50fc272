'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { useToast } from '@/components/admin/toast';
import { ATTACHMENT_TYPES } from '@/contracts/enums';

/** Writes into the chat as the customer (to exercise the bot) or as an announcement for agents. */
export function AppendMessage({ chatId, closed }: { chatId: string; closed: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [type, setType] = useState<'inbound' | 'announcement'>(closed ? 'announcement' : 'inbound');
  const [text, setText] = useState('');
  const [attachmentType, setAttachmentType] = useState<(typeof ATTACHMENT_TYPES)[number]>('image');
  const [attachmentUrl, setAttachmentUrl] = useState('');
  const post = tsr.chats.postMessage.useMutation({
    onSuccess: () => {
      toast.success(type === 'inbound' ? 'Customer message added: the assigned bot gets message.received.' : 'Announcement added.');
      setText('');
      setAttachmentUrl('');
      qc.invalidateQueries({ queryKey: keys.chat(chatId) });
    },
  });
  const failure = failureOf(post.error);
  const err = (f: string) => fieldError(failure, f);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const url = attachmentUrl.trim();
    post.mutate({
      params: { chat_id: chatId },
      body: { type, ...(text.trim() ? { text: text.trim() } : {}), ...(url ? { attachment: { type: attachmentType, url } } : {}) },
    });
  };

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="append-title">
      <h2 id="append-title">Add a message</h2>
      <FormError failure={failure} placed={['text', 'attachment']} />
      <fieldset className="checks-fieldset">
        <legend>Write as</legend>
        <div className="checks">
          <label>
            <input
              type="radio"
              name="msg-type"
              value="inbound"
              checked={type === 'inbound'}
              disabled={closed}
              onChange={() => setType('inbound')}
            />
            The customer (inbound)
          </label>
          <label>
            <input
              type="radio"
              name="msg-type"
              value="announcement"
              checked={type === 'announcement'}
              onChange={() => setType('announcement')}
            />
            Announcement (agents and admins only)
          </label>
        </div>
        {closed && <p className="hint">The chat is closed: only announcements can be added.</p>}
      </fieldset>
      <Field id="msg-text" label="Text" error={err('text')}>
        <textarea {...described('msg-text', { error: err('text') })} value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <div className="grid-2 attach-grid">
        <Field id="msg-attachment-url" label="Attachment URL (optional)" error={err('attachment.url') ?? err('attachment')}>
          <input
            {...described('msg-attachment-url', { error: err('attachment.url') ?? err('attachment') })}
            type="url"
            placeholder="https://…"
            value={attachmentUrl}
            onChange={(e) => setAttachmentUrl(e.target.value)}
          />
        </Field>
        <Field id="msg-attachment-type" label="Attachment type">
          <select
            id="msg-attachment-type"
            value={attachmentType}
            onChange={(e) => setAttachmentType(e.target.value as typeof attachmentType)}
          >
            {ATTACHMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <SubmitButton pending={post.isPending} pendingText="Sending…" disabled={!text.trim() && !attachmentUrl.trim()}>
        {type === 'inbound' ? 'Send as customer' : 'Add announcement'}
      </SubmitButton>
    </form>
  );
}
