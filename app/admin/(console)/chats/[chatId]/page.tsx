import type { Metadata } from 'next';
import { ChatDetail } from '@/components/admin/chats/chat-detail';

export const metadata: Metadata = { title: 'Chat' };

/** `?focus=message:<transid>`, `event:<id>` or `request:<trxid>` (a trace link) scrolls to and highlights that item. */
export default async function ChatPage({
  params,
  searchParams,
}: {
  params: Promise<{ chatId: string }>;
  searchParams: Promise<{ focus?: string | string[] }>;
}) {
  const focus = (await searchParams).focus;
  return <ChatDetail chatId={decodeURIComponent((await params).chatId)} focus={Array.isArray(focus) ? focus[0] : focus} />;
}
