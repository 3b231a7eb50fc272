import { simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 24, text: 24, reasoning: undefined },
};

/**
 * A language model that needs no key: the AI SDK's mock model, scripted to do what a real one
 * does in a support chat. Its first step reasons (which the customer never sees) and calls the
 * `lookupOrder` tool; its second step writes `answer` a few words at a time.
 */
function scriptedModel(answer: string) {
  let step = 0;
  const words = answer.split(/(?<= )/);
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        initialDelayInMs: 300,
        chunkDelayInMs: 120,
        // The model's own stream parts (the provider package's types, which `ai` bundles).
        chunks: (step++ === 0
          ? [
              { type: 'reasoning-start', id: 'r1' },
              { type: 'reasoning-delta', id: 'r1', delta: 'The customer asked a question; check their order first.' },
              { type: 'reasoning-end', id: 'r1' },
              { type: 'tool-call', toolCallId: `call-${Date.now()}`, toolName: 'lookupOrder', input: '{"order":"1042"}' },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
            ]
          : [
              { type: 'text-start', id: 't1' },
              ...words.map((delta) => ({ type: 'text-delta', id: 't1', delta })),
              { type: 'text-end', id: 't1' },
              { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
            ]) as never,
      }),
    }),
  });
}

/** What a bot on the AI SDK ends in: `streamText(...)`, whose UI message stream goes to the service as it is. */
export function answerWithModel(question: string, answer: string) {
  return streamText({
    model: scriptedModel(answer),
    system: 'You are the support assistant of an online shop.',
    prompt: question,
    tools: {
      lookupOrder: tool({
        description: 'Find an order by its number',
        inputSchema: z.object({ order: z.string() }),
        execute: async ({ order }) => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          return { order, status: 'shipped' };
        },
      }),
    },
    stopWhen: stepCountIs(3),
  });
}
