'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { SecretReveal } from '@/components/admin/secret-reveal';
import { keys, tsr } from '@/components/admin/shared/client';
import { type Failure, failureOf, fieldError } from '@/components/shared/errors';
import { recordingLineSchema } from '@/contracts/admin/schemas/recording';
import { CHANGE_KINDS } from '@/lib/replay/diff-chat';
import { thresholdsToSearch } from './thresholds';

type Source = 'file' | 'run';
/** A failure of one step, or a problem found in the file before anything was sent. */
type Problem = { title: string; failure: Failure };
const local = (description: string): Failure => ({ status: null, code: null, description, fields: {} });

/** Reads a recording file: every line checked against the format, the first bad ones named with their line number. */
async function readRecording(file: File): Promise<{ lines: unknown[]; errors: string[] }> {
  const lines: unknown[] = [];
  const errors: string[] = [];
  for (const [i, raw] of (await file.text()).split('\n').entries()) {
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push(`line ${i + 1}: not JSON`);
      continue;
    }
    const parsed = recordingLineSchema.safeParse(value);
    if (parsed.success) lines.push(value);
    else errors.push(`line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; ')}`);
  }
  return { lines, errors };
}

/** Batches within the API's limits: 500 lines and well under the body size limit (256 KiB by default). */
function batches(lines: unknown[]): unknown[][] {
  const out: unknown[][] = [[]];
  let size = 0;
  for (const line of lines) {
    const bytes = JSON.stringify(line).length + 1;
    if (out[out.length - 1].length === 500 || (size + bytes > 200_000 && out[out.length - 1].length)) {
      out.push([]);
      size = 0;
    }
    out[out.length - 1].push(line);
    size += bytes;
  }
  return out;
}

/**
 * Start a replay: a recording (a file, or the chats of an earlier run), the sandbox VA of the bot
 * under test (or a new one), an optional baseline run to diff against, thresholds, and timings.
 * The chats are sent in batches, the run started, and the run's page opened.
 */
export function StartReplay() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const runs = tsr.replays.listReplays.useQuery({ queryKey: keys.replays });
  const vas = tsr.replays.listSandboxVirtualAgents.useQuery({ queryKey: keys.sandboxVas });
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [fromRun, setFromRun] = useState('');
  const [vaId, setVaId] = useState('');
  const [newVa, setNewVa] = useState({ name: '', webhook_url: '', pull: false });
  const [revealed, setRevealed] = useState<{ api_key: string; signing_secret: string; login_id: string } | null>(null);
  const [against, setAgainst] = useState('recording');
  const [failOn, setFailOn] = useState<string[]>(['handover']);
  const [limits, setLimits] = useState({ maxChanged: '', maxP95: '' });
  const [timing, setTiming] = useState({ label: '', settle_ms: '', turn_timeout_ms: '', concurrency: '' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [step, setStep] = useState<string | null>(null);

  const createVa = tsr.replays.createSandboxVirtualAgent.useMutation({
    onSuccess: (res) => {
      const va = res.body.response;
      setRevealed(va);
      setVaId(String(va.id));
      setNewVa({ name: '', webhook_url: '', pull: false });
      void queryClient.invalidateQueries({ queryKey: keys.sandboxVas });
    },
  });
  const vaFailure = failureOf(createVa.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    try {
      setStep('Reading the recording…');
      let lines: unknown[] = [];
      if (source === 'file') {
        if (!file) return setProblem({ title: 'Not started', failure: local('Choose a recording file (.jsonl).') });
        const read = await readRecording(file);
        if (read.errors.length) {
          return setProblem({
            title: 'The recording has lines the format refuses',
            failure: local(read.errors.slice(0, 5).join(' · ') + (read.errors.length > 5 ? ` · and ${read.errors.length - 5} more` : '')),
          });
        }
        lines = read.lines;
      } else {
        if (!fromRun) return setProblem({ title: 'Not started', failure: local('Choose the run whose chats to replay.') });
        const res = await tsr.replays.replayResults.query({ params: { run_id: fromRun } });
        if (res.status !== 200) return setProblem({ title: 'Could not read that run', failure: failureOf(res) as Failure });
        lines = (res.body as unknown as string)
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      }
      if (!lines.length) return setProblem({ title: 'Not started', failure: local('The recording holds no chats.') });
      if (!vaId)
        return setProblem({ title: 'Not started', failure: local('Choose the sandbox VA of the bot under test, or register one.') });
      const num = (v: string) => (v === '' ? undefined : Number(v));
      setStep('Creating the run…');
      const created = await tsr.replays.createReplay.mutate({
        body: {
          virtual_agent_id: Number(vaId),
          label: timing.label || (source === 'file' ? (file?.name ?? '') : `chats of ${fromRun}`),
          settle_ms: num(timing.settle_ms),
          turn_timeout_ms: num(timing.turn_timeout_ms),
          concurrency: num(timing.concurrency),
        },
      });
      if (created.status !== 201) return setProblem({ title: 'Not started', failure: failureOf(created) as Failure });
      const runId = created.body.response.run_id;
      let sent = 0;
      for (const batch of batches(lines)) {
        setStep(`Sending chats: ${sent} of ${lines.length}…`);
        const added = await tsr.replays.addReplayChats.mutate({ params: { run_id: runId }, body: { chats: batch as never } });
        if (added.status !== 200)
          return setProblem({ title: `Chats ${sent + 1} to ${sent + batch.length} were refused`, failure: failureOf(added) as Failure });
        sent += batch.length;
      }
      setStep('Starting…');
      const started = await tsr.replays.startReplay.mutate({ params: { run_id: runId } });
      if (started.status !== 200) return setProblem({ title: 'Not started', failure: failureOf(started) as Failure });
      void queryClient.invalidateQueries({ queryKey: keys.replays });
      router.push(
        `/admin/replays/${runId}?${thresholdsToSearch({ against, failOn, maxChanged: limits.maxChanged, maxP95: limits.maxP95 })}`,
      );
    } catch (err) {
      setProblem({ title: 'Not started', failure: failureOf(err) as Failure });
    } finally {
      setStep(null);
    }
  }

  const finished = runs.data?.body.response.filter((r) => r.status === 'done') ?? [];
  const err = (f: string) => fieldError(problem?.failure ?? null, f);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Start a replay</h1>
          <p className="muted">
            Each recorded chat is sent to the bot under test, turn by turn, in the replay sandbox; the run&apos;s page shows its progress
            and the diff. <Link href="/admin/replays">Back to replays</Link>
          </p>
        </div>
      </div>
      {revealed && (
        <SecretReveal
          title={`Sandbox VA ${revealed.login_id} registered: start the bot under test with these`}
          apiKey={revealed.api_key}
          signingSecret={revealed.signing_secret}
          onDone={() => setRevealed(null)}
        />
      )}
      <section className="card" aria-labelledby="new-va-title">
        <h2 id="new-va-title">Register a sandbox VA (once per bot under test)</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            createVa.mutate({
              body: { name: newVa.name, ...(newVa.pull ? { delivery_mode: 'pull' as const } : { webhook_url: newVa.webhook_url }) },
            });
          }}
          noValidate
        >
          <FormError failure={vaFailure} title="Not registered" placed={['name', 'webhook_url']} />
          <div className="grid-2">
            <Field id="va-name" label="Name" required error={fieldError(vaFailure, 'name')}>
              <input
                {...described('va-name', { error: fieldError(vaFailure, 'name'), required: true })}
                value={newVa.name}
                onChange={(e) => setNewVa({ ...newVa, name: e.target.value })}
              />
            </Field>
            <Field
              id="va-webhook"
              label="Webhook URL"
              hint="Where the bot under test listens; or tick pull."
              error={fieldError(vaFailure, 'webhook_url')}
            >
              <input
                {...described('va-webhook', { error: fieldError(vaFailure, 'webhook_url'), hint: true })}
                value={newVa.webhook_url}
                disabled={newVa.pull}
                onChange={(e) => setNewVa({ ...newVa, webhook_url: e.target.value })}
              />
            </Field>
          </div>
          <label className="check">
            <input type="checkbox" checked={newVa.pull} onChange={(e) => setNewVa({ ...newVa, pull: e.target.checked })} /> The bot pulls
            its events (no webhook)
          </label>
          <SubmitButton pending={createVa.isPending} className="btn" pendingText="Registering…">
            Register sandbox VA
          </SubmitButton>
        </form>
      </section>

      <form className="card" onSubmit={submit} noValidate aria-labelledby="start-title">
        <h2 id="start-title">The replay</h2>
        {problem && (
          <FormError
            failure={problem.failure}
            title={problem.title}
            placed={['virtual_agent_id', 'settle_ms', 'turn_timeout_ms', 'concurrency', 'label']}
          />
        )}
        <fieldset>
          <legend>Recording</legend>
          <label className="check">
            <input type="radio" name="source" checked={source === 'file'} onChange={() => setSource('file')} /> Upload a recording file
          </label>
          <label className="check">
            <input type="radio" name="source" checked={source === 'run'} onChange={() => setSource('run')} /> Replay the chats of an earlier
            run (as that run&apos;s bot handled them)
          </label>
          {source === 'file' ? (
            <Field
              id="recording-file"
              label="Recording (.jsonl)"
              hint="One chat a line, as Export recordings writes it or written by hand (see the guide)."
            >
              <input
                {...described('recording-file', { hint: true })}
                type="file"
                accept=".jsonl,.ndjson,.json,application/x-ndjson"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Field>
          ) : (
            <Field id="recording-run" label="Earlier run">
              <select id="recording-run" value={fromRun} onChange={(e) => setFromRun(e.target.value)}>
                <option value="">Choose…</option>
                {finished.map((r) => (
                  <option key={r.run_id} value={r.run_id}>
                    {r.label || r.run_id} ({r.chats_total} chats)
                  </option>
                ))}
              </select>
            </Field>
          )}
        </fieldset>
        <Field id="target-va" label="Bot under test (sandbox VA)" required error={err('virtual_agent_id')}>
          <select
            {...described('target-va', { error: err('virtual_agent_id'), required: true })}
            value={vaId}
            onChange={(e) => setVaId(e.target.value)}
          >
            <option value="">Choose…</option>
            {vas.data?.body.response.map((va) => (
              <option key={va.id} value={va.id}>
                {va.name} ({va.login_id}, {va.delivery_mode === 'pull' ? 'pull' : va.webhook_url})
              </option>
            ))}
          </select>
        </Field>
        <Field id="baseline" label="Compare with" hint="The recording itself, or an earlier run (a baseline of the current bot).">
          <select {...described('baseline', { hint: true })} value={against} onChange={(e) => setAgainst(e.target.value)}>
            <option value="recording">The recording</option>
            {finished.map((r) => (
              <option key={r.run_id} value={r.run_id}>
                Run {r.label || r.run_id}
              </option>
            ))}
          </select>
        </Field>
        <fieldset>
          <legend>Thresholds: the run fails when…</legend>
          <div className="check-grid">
            {['any', ...CHANGE_KINDS].map((k) => (
              <label key={k} className="check">
                <input
                  type="checkbox"
                  checked={failOn.includes(k)}
                  onChange={(e) => setFailOn(e.target.checked ? [...failOn, k] : failOn.filter((x) => x !== k))}
                />{' '}
                {k === 'any' ? 'any change' : `a ${k.replace('_', ' ')} change`}
              </label>
            ))}
          </div>
          <div className="grid-2">
            <Field id="max-changed" label="More chats changed than">
              <input
                id="max-changed"
                type="number"
                min={0}
                value={limits.maxChanged}
                onChange={(e) => setLimits({ ...limits, maxChanged: e.target.value })}
              />
            </Field>
            <Field id="max-p95" label="Reply latency p95 above (ms)">
              <input
                id="max-p95"
                type="number"
                min={0}
                value={limits.maxP95}
                onChange={(e) => setLimits({ ...limits, maxP95: e.target.value })}
              />
            </Field>
          </div>
        </fieldset>
        <details>
          <summary>Label and timings</summary>
          <div className="grid-2">
            <Field id="run-label" label="Label" error={err('label')}>
              <input
                {...described('run-label', { error: err('label') })}
                value={timing.label}
                onChange={(e) => setTiming({ ...timing, label: e.target.value })}
              />
            </Field>
            <Field id="settle" label="Quiet time that ends a turn (ms, default 300)" error={err('settle_ms')}>
              <input
                {...described('settle', { error: err('settle_ms') })}
                type="number"
                value={timing.settle_ms}
                onChange={(e) => setTiming({ ...timing, settle_ms: e.target.value })}
              />
            </Field>
            <Field id="turn-timeout" label="Turn timeout (ms, default 15000)" error={err('turn_timeout_ms')}>
              <input
                {...described('turn-timeout', { error: err('turn_timeout_ms') })}
                type="number"
                value={timing.turn_timeout_ms}
                onChange={(e) => setTiming({ ...timing, turn_timeout_ms: e.target.value })}
              />
            </Field>
            <Field id="concurrency" label="Chats at once (default 16)" error={err('concurrency')}>
              <input
                {...described('concurrency', { error: err('concurrency') })}
                type="number"
                value={timing.concurrency}
                onChange={(e) => setTiming({ ...timing, concurrency: e.target.value })}
              />
            </Field>
          </div>
        </details>
        <SubmitButton pending={step !== null} pendingText={step ?? 'Starting…'}>
          Start the replay
        </SubmitButton>
        {step && (
          <p className="muted" role="status">
            {step}
          </p>
        )}
      </form>
    </>
  );
}
