'use client';

import { LoadState } from '@/components/admin/data-table';
import { tsr } from '@/components/admin/shared/client';
import { RecordingNote } from './recording-note';
import { RequestRows } from './request-rows';

/** The bot's REST calls about one chat, newest first (the latest 100), refreshed with the chat. */
export function ChatRequests({ chatId, highlight }: { chatId: string; highlight?: string }) {
  const query = { chat_id: chatId, page_size: 100 };
  const requests = tsr.traces.listBotRequests.useQuery({
    queryKey: ['bot-requests', query],
    queryData: { query },
    refetchInterval: 3_000,
  });
  const rows = requests.data?.body.response.requests;
  return (
    <section className="card" aria-labelledby="chat-requests-title">
      <h2 id="chat-requests-title">
        Bot requests about this chat{rows ? ` (${rows.length}${requests.data?.body.response.next_cursor ? '+' : ''})` : ''}
      </h2>
      <RecordingNote recording={requests.data?.body.response.recording} />
      <LoadState query={requests} failure="Could not load the requests" />
      <RequestRows
        requests={rows}
        label="Requests about this chat"
        highlight={highlight}
        empty="No bot requests recorded about this chat."
        showChat={false}
      />
    </section>
  );
}
