import Link from 'next/link';

export default function Home() {
  return (
    <main style={{ maxWidth: 560, margin: '15vh auto', padding: '0 1.25rem' }}>
      <h1>VA Chat</h1>
      <p>Customer chats for Virtual Agents: a REST API for bots, webhooks for their events, and an admin console.</p>
      <ul>
        <li>
          <Link href="/docs">Build a bot: the guide</Link>, the <a href="/docs/bot-api">bot API reference</a> (
          <a href="/api/v1/openapi.json">OpenAPI document</a>) and the <a href="/docs/admin-api">admin API reference</a>
        </li>
        <li>
          <a href="/admin">Admin console</a>
        </li>
      </ul>
    </main>
  );
}
