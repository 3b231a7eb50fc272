'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { LoadState } from '@/components/admin/data-table';
import { FilterRow } from '@/components/admin/filter-row';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { formatDateTime } from '@/components/admin/shared/format';
import { TableRegion } from '@/components/admin/table-region';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf, fieldError } from '@/components/shared/errors';
import { type AdminAsset, createAssetBodySchema, type ListAssetsQuery, listAssetsQuerySchema } from '@/contracts/admin/schemas/asset';
import { CHANNELS } from '@/contracts/enums';

type NewAssetValues = { channel: string; name: string; address: string };
const newAssetResolver = contractResolver(
  createAssetBodySchema,
  (v: NewAssetValues) => ({ channel: v.channel, name: v.name, ...(v.address.trim() ? { address: v.address } : {}) }),
  { channel: 'the channel', name: 'the asset name', address: 'the address' },
);

function NewAsset() {
  const qc = useQueryClient();
  const toast = useToast();
  const { register, handleSubmit, reset, formState } = useForm<NewAssetValues, unknown, z.output<typeof createAssetBodySchema>>({
    resolver: newAssetResolver,
    defaultValues: { channel: 'sms', name: '', address: '' },
  });
  const create = tsr.assets.createAsset.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.assets });
      toast.success(`Asset ${res.body.response.name} created with ID ${res.body.response.id}.`);
      reset();
    },
  });
  const failure = failureOf(create.error);
  const err = (f: keyof NewAssetValues) => formState.errors[f]?.message ?? fieldError(failure, f);
  return (
    <form className="card" onSubmit={handleSubmit((body) => create.mutate({ body }))} noValidate aria-label="New asset">
      <h2>New asset</h2>
      <FormError failure={failure} placed={['channel', 'name', 'address']} />
      <div className="grid-3">
        <Field id="new-asset-channel" label="Channel" required error={err('channel')}>
          <select {...described('new-asset-channel', { error: err('channel'), required: true })} {...register('channel')}>
            <ChannelOptions />
          </select>
        </Field>
        <Field id="new-asset-name" label="Name" required error={err('name')}>
          <input {...described('new-asset-name', { error: err('name'), required: true })} {...register('name')} />
        </Field>
        <Field id="new-asset-address" label="Address" hint="Long code, page ID, From address or app ID; optional" error={err('address')}>
          <input {...described('new-asset-address', { error: err('address'), hint: true })} {...register('address')} />
        </Field>
      </div>
      <SubmitButton pending={create.isPending}>Create asset</SubmitButton>
    </form>
  );
}

/** One asset's row: its name and address change in place; it can be disabled and enabled again. */
function AssetRow({ asset }: { asset: AdminAsset }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(asset.name);
  const [address, setAddress] = useState(asset.address ?? '');
  const update = tsr.assets.updateAsset.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.assets });
      toast.success(`Asset ${res.body.response.id} saved.`);
    },
  });
  const toggle = tsr.assets.updateAsset.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.assets });
      const a = res.body.response;
      toast.success(a.enabled ? `Asset ${a.name} enabled: it takes new chats again.` : `Asset ${a.name} disabled: no new chats on it.`);
    },
  });
  const failure = failureOf(update.error ?? toggle.error);
  const changed = name.trim() !== asset.name || address.trim() !== (asset.address ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ params: { id: asset.id }, body: { name: name.trim(), address: address.trim() ? address.trim() : null } });
  };
  const idp = `asset-${asset.id}`;
  return (
    <tr data-testid="asset-row" data-enabled={asset.enabled}>
      <td className="num">{asset.id}</td>
      <td>{asset.channel}</td>
      <td>
        {asset.enabled ? (
          <span className="badge badge-ok">Enabled</span>
        ) : (
          <span className="badge badge-warn">Disabled {asset.disabled_at && `since ${formatDateTime(asset.disabled_at)}`}</span>
        )}
      </td>
      <td colSpan={2}>
        <form onSubmit={submit} noValidate className="row" aria-label={`Asset ${asset.id}`}>
          <Field id={`${idp}-name`} label="Name" error={fieldError(failure, 'name')}>
            <input
              {...described(`${idp}-name`, { error: fieldError(failure, 'name') })}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field id={`${idp}-address`} label="Address" error={fieldError(failure, 'address')}>
            <input
              {...described(`${idp}-address`, { error: fieldError(failure, 'address') })}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
            />
          </Field>
          <SubmitButton pending={update.isPending} className="btn" disabled={!changed || !name.trim()}>
            Save
          </SubmitButton>
        </form>
        <FormError failure={failure} placed={['name', 'address']} />
        {asset.widget && <WidgetInstall asset={asset} widget={asset.widget} />}
      </td>
      <td>
        <SubmitButton
          type="button"
          pending={toggle.isPending}
          className={asset.enabled ? 'btn btn-danger' : 'btn'}
          onClick={() => toggle.mutate({ params: { id: asset.id }, body: { enabled: !asset.enabled } })}
        >
          {asset.enabled ? 'Disable' : 'Enable'}
          <span className="sr-only"> asset {asset.id}</span>
        </SubmitButton>
      </td>
    </tr>
  );
}

/**
 * A livechat asset's chat widget: the website origins that may embed it (one per line), the one
 * script tag to put on those sites, and the full-page chat link.
 */
function WidgetInstall({ asset, widget }: { asset: AdminAsset; widget: NonNullable<AdminAsset['widget']> }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [origins, setOrigins] = useState(asset.allowed_origins.join('\n'));
  const save = tsr.assets.updateAsset.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.assets });
      const n = res.body.response.allowed_origins.length;
      toast.success(`Asset ${res.body.response.id}: the widget may be embedded on ${n} ${n === 1 ? 'website' : 'websites'}.`);
    },
  });
  const failure = failureOf(save.error);
  const list = origins
    .split(/\s+/)
    .map((o) => o.trim())
    .filter(Boolean);
  const idp = `asset-${asset.id}-widget`;
  const originsError = fieldError(failure, 'allowed_origins') ?? null;
  return (
    <details className="widget-install">
      <summary>Chat widget: embed code and allowed websites</summary>
      <form
        noValidate
        aria-label={`Chat widget of asset ${asset.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ params: { id: asset.id }, body: { allowed_origins: list } });
        }}
      >
        <Field
          id={`${idp}-origins`}
          label="Allowed websites"
          hint="One origin per line, such as https://shop.example (scheme, host and port; no path). On other websites the script does nothing."
          error={originsError}
        >
          <textarea
            {...described(`${idp}-origins`, { error: originsError, hint: true })}
            rows={3}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
          />
        </Field>
        <SubmitButton pending={save.isPending} className="btn">
          Save websites
        </SubmitButton>
        <FormError failure={failure} placed={originsError ? Object.keys(failure?.fields ?? {}) : []} />
      </form>
      <p>
        Embed code (put it on each page of those websites):
        <code className="embed" data-testid="widget-embed">
          {widget.embed_html}
        </code>
      </p>
      <p>
        Full-page chat:{' '}
        <a href={widget.url} target="_blank" rel="noopener noreferrer" data-testid="widget-url">
          {widget.url}
        </a>
      </p>
      <p data-testid="widget-origin">
        {widget.origin_from === 'PUBLIC_URL' ? (
          <>
            These addresses use <code>{widget.origin}</code>, from the <code>PUBLIC_URL</code> setting.
          </>
        ) : (
          <>
            <code>PUBLIC_URL</code> is not set, so these addresses use <code>{widget.origin}</code>: the address this page was opened at
            (its own host; forwarded headers only from <code>TRUSTED_PROXIES</code>). Each website gets the widget from the address its own
            request came to. Set <code>PUBLIC_URL</code> to the service&apos;s public address so the code does not depend on how the console
            is reached.
          </>
        )}
      </p>
    </details>
  );
}

type FilterValues = { q: string; channel: string; enabled: string };
const filterSchema = listAssetsQuerySchema.pick({ q: true, channel: true, enabled: true });
const filterResolver = contractResolver(
  filterSchema,
  (v: FilterValues) => Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x.trim() ? [[k, x.trim()]] : []))),
  { q: 'the search', channel: 'the channel', enabled: 'the state' },
);

/** The account's assets, a page at a time, found by name or address, channel and state. */
export function AssetsView() {
  const [filters, setFilters] = useState<ListAssetsQuery>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const query: ListAssetsQuery = { ...filters, page_size: 50, cursor: cursors.at(-1) };
  const assets = tsr.assets.listAssets.useQuery({ queryKey: [...keys.assets, query], queryData: { query } });
  const page = assets.data?.body.response;
  const list = page?.assets ?? [];
  const form = useContractForm<FilterValues, ListAssetsQuery>(filterResolver, { q: '', channel: '', enabled: '' });
  const err = form.messages(null);
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Channel assets</h1>
          <p className="muted">
            The sms long codes, social pages, email addresses and chat apps customers write to. An asset&apos;s ID is the{' '}
            <code>asset_id</code> of <code>POST /api/v1/chats</code>; bots list them with <code>GET /api/v1/assets</code>.
          </p>
        </div>
      </div>
      <NewAsset />
      <FilterRow
        label="Find assets"
        onSubmit={form.handleSubmit((picked) => {
          setCursors([]);
          setFilters(picked);
        })}
        actions={
          <button type="submit" className="btn btn-primary">
            Find
          </button>
        }
      >
        <Field id="assets-q" label="Name or address" hint="Part of it, any case" error={err('q')}>
          <input {...form.bind('q', 'assets-q', { failure: null, hint: true })} type="search" />
        </Field>
        <Field id="assets-channel" label="Channel" error={err('channel')}>
          <select {...form.bind('channel', 'assets-channel', { failure: null })}>
            <option value="">Any</option>
            <ChannelOptions />
          </select>
        </Field>
        <Field id="assets-enabled" label="State" error={err('enabled')}>
          <select {...form.bind('enabled', 'assets-enabled', { failure: null })}>
            <option value="">Enabled and disabled</option>
            <option value="true">Enabled</option>
            <option value="false">Disabled</option>
          </select>
        </Field>
      </FilterRow>
      <section className="card" aria-labelledby="assets-title">
        <h2 id="assets-title">
          {filtered ? 'Matching assets' : 'Assets'}
          {page && ` (${cursors.length > 0 ? `page ${cursors.length + 1}: ` : ''}${list.length}${page.next_cursor ? '+' : ''})`}
        </h2>
        <LoadState query={assets} />
        {page && list.length === 0 && <p className="muted">{filtered ? 'No asset matches.' : 'No assets yet.'}</p>}
        {list.length > 0 && (
          <TableRegion label="Channel assets, table">
            <table>
              <thead>
                <tr>
                  <th className="num">ID</th>
                  <th>Channel</th>
                  <th>State</th>
                  <th colSpan={2}>Name and address</th>
                  <th>New chats</th>
                </tr>
              </thead>
              <tbody>
                {list.map((a) => (
                  <AssetRow key={a.id} asset={a} />
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <nav className="pager" aria-label="Pages of assets">
          {cursors.length > 0 && (
            <button type="button" className="btn" onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous page
            </button>
          )}
          {page?.next_cursor && (
            <button type="button" className="btn" onClick={() => setCursors([...cursors, page.next_cursor as string])}>
              Next page
            </button>
          )}
        </nav>
        <p className="muted small">
          Assets are never deleted or moved to another channel: chats and their events refer to them. Disable one to retire it: new chats on
          it are refused (code 2035), while its existing chats carry on.
        </p>
      </section>
    </>
  );
}

/** One option per channel, for a channel select. */
function ChannelOptions() {
  return CHANNELS.map((c) => (
    <option key={c} value={c}>
      {c}
    </option>
  ));
}
