import type { OutboxRecord } from '@confab/events';
import type { ClientDevice, ClientDevicePatch, PushDevice, TokenKind } from './types.js';

/** What a device registration records (POST /mobile_push/register): the device's own fields, before its status. */
export type DeviceRegistration = Pick<
  PushDevice,
  | 'userId'
  | 'realmId'
  | 'pushAccountId'
  | 'tokenKind'
  | 'pushPublicKey'
  | 'bouncerPublicKey'
  | 'encryptedPushRegistration'
>;

/**
 * What the push domain stores (docs/architecture.md, "Data access"): the storage interface the domain owns;
 * repositories/push.repository.ts implements it. Every change others learn of is one unit of work with its events.
 */
export interface PushStore {
  /** Records a legacy token; registering the same token again only refreshes it. */
  addToken(data: {
    userId: number;
    realmId: number;
    kind: TokenKind;
    token: string;
    iosAppId: string | null;
  }): Promise<void>;
  /** Whether the user registered this legacy token (of either kind). */
  hasToken(userId: number, token: string): Promise<boolean>;
  /** Deletes the user's token; false when there was none. */
  removeToken(userId: number, kind: TokenKind, token: string): Promise<boolean>;
  deviceByAccount(userId: number, pushAccountId: number): Promise<PushDevice | null>;
  /** The user's devices the relay has registered, optionally only one (by device id or push account id). */
  activeDevices(userId: number, only?: { deviceId?: number; pushAccountId?: number }): Promise<PushDevice[]>;
  /**
   * Creates the device, or starts its registration over (new keys, status pending), and writes the events
   * `announce` makes of the saved device in the same transaction.
   */
  savePendingDevice(data: DeviceRegistration, announce: (device: PushDevice) => OutboxRecord[]): Promise<PushDevice>;

  /** Creates a client device of the user, with the events `announce` makes of it, in one transaction. */
  addClientDevice(
    owner: { userId: number; realmId: number },
    announce: (device: ClientDevice) => OutboxRecord[],
  ): Promise<ClientDevice>;
  clientDevicesOf(userId: number): Promise<ClientDevice[]>;
  clientDevice(id: number): Promise<ClientDevice | null>;
  /**
   * Locks the client device (null when there is none) and applies what `decide` makes of it: an update, its
   * removal, or nothing, with the events of that change, in one transaction. `decide` may throw to change nothing.
   */
  changeClientDevice<T>(id: number, decide: (device: ClientDevice | null) => ClientDeviceChange<T>): Promise<T>;
}

/** What a change of a client device does: set fields, remove the device, or nothing; and the events it causes. */
export interface ClientDeviceChange<T> {
  update?: ClientDevicePatch;
  remove?: boolean;
  events: OutboxRecord[];
  result: T;
}
