import type { Metadata } from 'next';
import { ChatDetail } from '@/components/admin/chats/chat-detail';

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage({ params }: { params: Promise<{ chatId: string }> }) {
  return <ChatDetail chatId={decodeURIComponent((await params).chatId)} />;
}
