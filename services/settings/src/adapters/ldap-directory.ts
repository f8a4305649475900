import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { Directory, DirectoryEntry } from '../domain/sso/ports.js';
import type { LdapSettings } from '../domain/sso/settings.js';

/** Attributes that hold bytes, returned as base64 text. */
const BINARY_ATTRIBUTES = ['jpegPhoto', 'thumbnailPhoto', 'objectGUID', 'objectSid'];

/** The binary attributes, with the configured avatar's (any photo attribute a directory uses). */
const binaryAttributes = (settings: LdapSettings) =>
  settings.avatarAttr ? [...BINARY_ATTRIBUTES, settings.avatarAttr] : BINARY_ATTRIBUTES;

function textOf(value: string | Buffer): string {
  return typeof value === 'string' ? value : value.toString('base64');
}

function entryOf(entry: Entry): DirectoryEntry {
  const attributes: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue;
    const values = Array.isArray(value) ? value : [value];
    attributes[name] = values.map((v) => textOf(v));
  }
  return { dn: entry.dn, attributes };
}

/**
 * The directory through ldapts: one connection per operation (logins are rare next to chat traffic, and a pooled
 * connection bound as one user must never serve another's search).
 */
export class LdaptsDirectory implements Directory {
  private client(settings: LdapSettings): Client {
    return new Client({ url: settings.url, timeout: settings.timeoutMs, connectTimeout: settings.timeoutMs });
  }

  async search(settings: LdapSettings, filter: string, attributes: string[]): Promise<DirectoryEntry[]> {
    const client = this.client(settings);
    try {
      if (settings.bindDn) await client.bind(settings.bindDn, settings.bindPassword);
      const { searchEntries } = await client.search(settings.userSearchBase, {
        scope: 'sub',
        filter,
        attributes,
        explicitBufferAttributes: binaryAttributes(settings),
      });
      return searchEntries.map(entryOf);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  async checkPassword(settings: LdapSettings, dn: string, password: string): Promise<boolean> {
    if (password === '') return false;
    const client = this.client(settings);
    try {
      await client.bind(dn, password);
      return true;
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return false;
      throw err;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  async bindAndRead(
    settings: LdapSettings,
    dn: string,
    password: string,
    attributes: string[],
  ): Promise<DirectoryEntry | null> {
    // The domain never asks with an empty password; refusing here too keeps an unauthenticated bind impossible.
    if (password === '') return null;
    const client = this.client(settings);
    try {
      try {
        await client.bind(dn, password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError) return null;
        throw err;
      }
      const { searchEntries } = await client.search(dn, {
        scope: 'base',
        filter: '(objectClass=*)',
        attributes,
        explicitBufferAttributes: binaryAttributes(settings),
      });
      const [entry] = searchEntries;
      return entry ? entryOf(entry) : null;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}
