import type { OperationObject, ParameterObject, Ref, ResponseObject } from '@/lib/openapi/types';
import styles from './docs.module.css';
import { Inline, Markdown } from './markdown';
import { type Components, JsonExample, SchemaTable, TypeLabel } from './schema-table';

export type DocParameters = Record<string, ParameterObject>;

const isRef = (p: ParameterObject | Ref): p is Ref => '$ref' in p;

export function MethodBadge({ method }: { method: string }) {
  return <span className={`${styles.method} ${styles[`method_${method}`] ?? ''}`}>{method.toUpperCase()}</span>;
}

function securityLine(op: OperationObject): string {
  if (op.tags?.includes('webhooks'))
    return "Sent by the service, signed with the VA's signing secret: verify `webhook-signature` before trusting the body.";
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('accessToken')) return 'Requires the `access_token` header (from `POST /api/v1/authorize`).';
  if (schemes.includes('adminSession')) return 'Requires an administrator session (the `va_session` cookie from `POST /api/admin/login`).';
  return 'No authentication.';
}

function Parameters({ op, shared }: { op: OperationObject; shared: DocParameters }) {
  const params = (op.parameters ?? []).map((p) => (isRef(p) ? shared[p.$ref.replace('#/components/parameters/', '')] : p)).filter(Boolean);
  if (!params.length) return null;
  return (
    <>
      <h4>Parameters</h4>
      <div className={styles.tableWrap}>
        <table className={`${styles.table} ${styles.schema}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th>In</th>
              <th>Type</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {params.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code className={styles.field}>{p.name}</code>
                  {p.required && <span className={styles.required}>required</span>}
                </td>
                <td>{p.in}</td>
                <td className={styles.type}>{p.schema && <TypeLabel schema={p.schema} />}</td>
                <td>
                  {p.description && <Inline text={p.description} />}
                  {p.example !== undefined && (
                    <span className={styles.limits}>
                      e.g. <code>{String(p.example)}</code>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Status code → its description, from the document's `x-status-codes`. */
export type CodeTexts = Record<number, string>;

function Response({
  status,
  response,
  components,
  codeTexts,
}: {
  status: string;
  response: ResponseObject;
  components: Components;
  codeTexts: CodeTexts;
}) {
  const media = response.content?.['application/json'];
  const codes = response['x-status-codes'] ?? [];
  const examples = Object.entries(media?.examples ?? {});
  const ok = Number(status) < 300;
  const headers = Object.keys(response.headers ?? {});
  return (
    <details className={styles.response} open={ok}>
      <summary>
        <span className={ok ? styles.statusOk : styles.statusError}>{status}</span>
        <span className={styles.responseCodes}>
          {codes.length
            ? codes.map((c) => (
                <span key={c} className={styles.responseCode}>
                  <a href={`#code-${c}`} className={styles.codeChip}>
                    {c}
                  </a>{' '}
                  {codeTexts[c]}
                </span>
              ))
            : response.description}
        </span>
      </summary>
      <div className={styles.responseBody}>
        {headers.length > 0 && (
          <p className={styles.muted}>
            Headers:{' '}
            {headers.map((h, i) => (
              <span key={h}>
                {i > 0 && ', '}
                <code>{h}</code>
              </span>
            ))}
          </p>
        )}
        {ok && media?.schema && <SchemaTable schema={media.schema} components={components} />}
        {examples.map(([key, example]) =>
          ok || examples.length === 1 ? (
            <JsonExample key={key} value={example.value} />
          ) : (
            <details key={key} className={styles.example}>
              <summary>Example {example.summary ?? key}</summary>
              <JsonExample value={example.value} />
            </details>
          ),
        )}
      </div>
    </details>
  );
}

export function Operation({
  method,
  path,
  op,
  components,
  parameters,
  codeTexts,
}: {
  method: string;
  path: string;
  op: OperationObject;
  components: Components;
  parameters: DocParameters;
  codeTexts: CodeTexts;
}) {
  const body = op.requestBody?.content['application/json'];
  return (
    <article id={op.operationId} className={styles.operation}>
      <h3 className={styles.operationTitle}>
        <a href={`#${op.operationId}`}>{op.summary}</a>
      </h3>
      <p className={styles.endpoint}>
        <MethodBadge method={method} />
        <code>{op.tags?.includes('webhooks') ? "{the VA's webhook URL}" : path}</code>
        <span className={styles.operationId}>{op.operationId}</span>
      </p>
      {op.description && <Markdown source={op.description} />}
      <p className={styles.muted}>
        <Inline text={securityLine(op)} />
      </p>
      <Parameters op={op} shared={parameters} />
      {body?.schema && (
        <>
          <h4>Request body</h4>
          <SchemaTable schema={body.schema} components={components} />
          {body.example !== undefined && <JsonExample value={body.example} />}
          {Object.entries(body.examples ?? {}).map(([key, example]) => (
            <details key={key} className={styles.example}>
              <summary>Example: {example.summary ?? key}</summary>
              <JsonExample value={example.value} />
            </details>
          ))}
        </>
      )}
      <h4>Responses</h4>
      {Object.entries(op.responses).map(([status, response]) => (
        <Response key={status} status={status} response={response} components={components} codeTexts={codeTexts} />
      ))}
    </article>
  );
}
