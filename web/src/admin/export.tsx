/**
 * Data exports, for administrators (issue 32): start one (POST /export/realm, public data or standard), see every
 * export with its state (GET /export/realm when the page opens or is refreshed; `realm_export` events keep the list
 * current while it is open, so an export shows as finished when the server's worker is done), download a finished
 * one (its archive, served to the administrator's session) and delete one (DELETE /export/realm/{id}).
 */
import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { userName } from '../store/store';
import { errorText, Outcome, useAction } from '../ui/outcome';
import { RecordTable } from '../ui/record-table';
import { realmExports, type RealmExport } from '../store/admin';

/** Zulip's export types. */
const TYPES: [string, string][] = [
  ['1', 'Public data'],
  ['2', 'Standard (with the private data of members who consented)'],
];
const typeName = (type: number) => (type === 2 ? 'Standard' : 'Public data');

function state(e: RealmExport): string {
  if (e.deleted_timestamp !== null) return 'Deleted';
  if (e.failed_timestamp !== null) return 'Failed';
  if (e.pending) return 'In progress…';
  return 'Finished';
}

/** The archive's address on this site (the server answers with the organization's full URL). */
function downloadHref(url: string): string {
  try {
    const parsed = new URL(url, location.href);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

export function DataExport() {
  const { ok, error, run } = useAction();
  const [type, setType] = useState('1');
  const [loadError, setLoadError] = useState('');
  const load = () =>
    client.organization.exports
      .list<RealmExport>()
      .then((answer) => {
        realmExports.value = answer.exports;
        setLoadError('');
      })
      .catch((e: unknown) => setLoadError(errorText(e)));
  useEffect(() => void load(), []);
  const list = [...(realmExports.value ?? [])].sort((a, b) => b.export_time - a.export_time);
  return (
    <section aria-labelledby="admin-export-heading" class="admin-export">
      <h2 id="admin-export-heading">Export the organization</h2>
      <p>
        An archive of the organization's data (users, channels, messages, groups, settings), written by the server in
        the background; it can be downloaded here when it is finished.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => client.organization.exports.start(Number(type)), 'Export started').then(load);
        }}
      >
        <label for="admin-export-type">Export type</label>
        <select id="admin-export-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {TYPES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button id="admin-export-start" type="submit">
          Start export
        </button>
      </form>
      <Outcome ok={ok} error={error || loadError} />
      <button id="admin-export-refresh" type="button" onClick={() => void load()}>
        Refresh the list
      </button>
      <RecordTable
        class="admin-export-list"
        records={realmExports.value === null ? null : list}
        empty="No exports yet."
        headings={['Requested', 'By', 'Type', 'State', 'Actions']}
        row={(e) => (
          <tr key={e.id} data-admin-export={e.id} data-state={state(e)}>
            <td>{new Date(e.export_time * 1000).toLocaleString()}</td>
            <td>{userName(e.acting_user_id) ?? e.acting_user_id}</td>
            <td>{typeName(e.export_type)}</td>
            <td class="state">{state(e)}</td>
            <td>
              {e.export_url && e.deleted_timestamp === null && (
                <a class="admin-export-download" href={downloadHref(e.export_url)} download>
                  Download
                </a>
              )}
              {e.deleted_timestamp === null && !e.pending && (
                <button
                  class="admin-export-delete"
                  aria-label={`Delete the export of ${new Date(e.export_time * 1000).toLocaleString()}`}
                  onClick={() => void run(() => client.organization.exports.delete(e.id), 'Export deleted').then(load)}
                >
                  Delete
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
