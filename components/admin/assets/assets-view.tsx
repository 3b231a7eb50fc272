'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { contractResolver } from '@/components/admin/lib/form-words';
import { TableRegion } from '@/components/admin/table-region';
import { useToast } from '@/components/admin/toast';
import { CHANNELS } from '@/contracts/enums';
import { type AdminAsset, createAssetBodySchema } from '@/contracts/schemas/admin-asset';

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
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
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

/** One asset's row: its name and address can change in place. */
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
  const failure = failureOf(update.error);
  const changed = name.trim() !== asset.name || address.trim() !== (asset.address ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ params: { id: asset.id }, body: { name: name.trim(), address: address.trim() ? address.trim() : null } });
  };
  const idp = `asset-${asset.id}`;
  return (
    <tr data-testid="asset-row">
      <td className="num">{asset.id}</td>
      <td>{asset.channel}</td>
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
      </td>
    </tr>
  );
}

export function AssetsView() {
  const assets = tsr.assets.listAssets.useQuery({ queryKey: keys.assets });
  const list = assets.data?.body.response ?? [];
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
      <section className="card" aria-labelledby="assets-title">
        <h2 id="assets-title">Assets ({list.length})</h2>
        {assets.isPending && <p className="muted">Loading…</p>}
        {assets.error && <p className="form-error">Could not load: {failureOf(assets.error)?.description}</p>}
        {list.length > 0 && (
          <TableRegion label="Channel assets, table">
            <table>
              <thead>
                <tr>
                  <th className="num">ID</th>
                  <th>Channel</th>
                  <th colSpan={2}>Name and address</th>
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
        <p className="muted small">Assets cannot be removed or moved to another channel: chats and their events refer to them.</p>
      </section>
    </>
  );
}
