import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createLogger } from '@confab/logging';
import { loadConfig } from '../config.js';
import { buildDomain } from '../domain-factory.js';
import {
  attachmentTarget,
  COLUMNS,
  csvLine,
  exportRow,
  searchMessages,
  type ExportSearchFilter,
} from '../domain/export-search.js';
import { archiveMessages, restoreArchived } from '../domain/retention.js';
import { ExportSearchRepository } from '../repositories/export-search.repository.js';

// Messaging's retention and compliance commands, run by the admin CLI (`npm run admin -- archive-messages |
// restore-archived | export-search …`) with messaging's environment: they work on messaging's database only; the
// events they write are published by the running service's outbox relay.

function instant(name: string, value: string | undefined): Date | null {
  if (value === undefined) return null;
  // Zulip reads these as ISO datetimes in UTC.
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) || !value.includes('T') ? value : `${value}Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`--${name} takes an ISO date and time`);
  return date;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      realm: { type: 'string' },
      channel: { type: 'string' },
      now: { type: 'string' },
      keyword: { type: 'string', multiple: true },
      sender: { type: 'string', multiple: true },
      recipient: { type: 'string', multiple: true },
      start: { type: 'string' },
      end: { type: 'string' },
      after: { type: 'string' },
      before: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      force: { type: 'boolean' },
      'write-attachments': { type: 'string' },
    },
  });
  const config = loadConfig();
  const logger = createLogger({ name: `messaging-${command}`, level: config.logLevel, to: 'stderr' });
  const { domain, store, close } = buildDomain(config, logger, () => undefined);
  const realmOf = async (subdomain: string | undefined) => {
    if (subdomain === undefined) throw new Error('--realm is required');
    const [realm] = await store.sql.query<{ id: number }>('SELECT id FROM realms WHERE string_id = $1', [subdomain]);
    if (!realm) throw new Error(`no organization with subdomain '${subdomain}'`);
    return realm.id;
  };
  try {
    switch (command) {
      case 'archive-messages': {
        const now = instant('now', values.now) ?? new Date();
        const realmId = values.realm === undefined ? undefined : await realmOf(values.realm);
        const report = await archiveMessages(domain, now, {
          vacuumDays: config.retention.vacuumDays,
          ...(realmId === undefined ? {} : { realmId }),
        });
        console.log(
          JSON.stringify({
            archived_messages: report.messages,
            batches: report.batches,
            purged_batches: report.purgedBatches,
            purged_files: report.purgedFiles,
          }),
        );
        break;
      }
      case 'restore-archived': {
        const realmId = await realmOf(values.realm);
        let channel: { recipientId: number } | undefined;
        if (values.channel !== undefined) {
          const [row] = await store.sql.query<{ recipient_id: number }>(
            'SELECT recipient_id FROM channels WHERE realm_id = $1 AND name_key = $2',
            [realmId, values.channel.toLowerCase()],
          );
          if (!row) throw new Error(`no channel named '${values.channel}'`);
          channel = { recipientId: row.recipient_id };
        }
        const restored = await restoreArchived(domain, realmId, channel);
        console.log(JSON.stringify({ restored_batches: restored.batches, restored_messages: restored.messages }));
        break;
      }
      case 'export-search': {
        const format = values.format ?? (values.output?.endsWith('.csv') ? 'csv' : 'json');
        if (format !== 'json' && format !== 'csv') throw new Error('--format is json or csv');
        if (values.output !== undefined && existsSync(values.output) && !values.force)
          throw new Error(`Output path '${values.output}' already exists; use --force to overwrite`);
        const filter: ExportSearchFilter = {
          realmId: await realmOf(values.realm),
          keywords: values.keyword ?? [],
          senders: values.sender ?? [],
          recipients: values.recipient ?? [],
          after: instant('start', values.start ?? values.after),
          before: instant('end', values.end ?? values.before),
        };
        const attachmentsDir = values['write-attachments'];
        if (attachmentsDir !== undefined && existsSync(attachmentsDir) && !values.force)
          throw new Error(`Attachments output path '${attachmentsDir}' already exists; use --force to overwrite`);
        let files = 0;
        /** The uploads a message links, copied from the deployment's file storage (Zulip's --write-attachments). */
        const writeAttachments = async (pathIds: readonly string[]) => {
          if (attachmentsDir === undefined) return;
          for (const pathId of pathIds) {
            const target = attachmentTarget(attachmentsDir, pathId, join);
            const file = target === null ? null : await domain.files.get(pathId);
            if (target === null || file === null) {
              console.error(`Attachment ${pathId} is missing from the file storage; not written`);
              continue;
            }
            await mkdir(dirname(target), { recursive: true });
            await pipeline(file.stream, createWriteStream(target));
            files += 1;
          }
        };
        const rows = searchMessages(new ExportSearchRepository(store.sql), filter);
        const out = values.output === undefined ? process.stdout : createWriteStream(values.output);
        const write = (text: string) =>
          new Promise<void>((ok, fail) => out.write(text, (err) => (err ? fail(err) : ok())));
        let count = 0;
        if (format === 'csv') {
          await write(csvLine(COLUMNS));
          for await (const m of rows) {
            const row = exportRow(m);
            await write(csvLine(COLUMNS.map((c) => row[c])));
            await writeAttachments(m.attachments);
            count += 1;
          }
        } else {
          // A JSON array written row by row, as Zulip's (indented) output, without holding it all in memory.
          await write('[');
          for await (const m of rows) {
            const item = JSON.stringify(exportRow(m), null, 2).replace(/\n/g, '\n  ');
            await write(`${count === 0 ? '\n  ' : ',\n  '}${item}`);
            await writeAttachments(m.attachments);
            count += 1;
          }
          await write(count === 0 ? ']\n' : '\n]\n');
        }
        if (out !== process.stdout) await new Promise<void>((ok) => (out as NodeJS.WritableStream).end(ok));
        console.error(
          `Exported ${count} messages${attachmentsDir === undefined ? '' : ` and ${files} attachments to ${attachmentsDir}`}`,
        );
        break;
      }
      default:
        throw new Error(`unknown command ${command ?? ''}`);
    }
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
