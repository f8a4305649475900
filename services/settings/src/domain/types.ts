import type { contracts } from '@confab/events';
import type { Role } from '@confab/identity';

export type GroupRef = contracts.GroupRef;
export type { Role };

export interface Realm {
  id: number;
  /** Subdomain; '' for the server's default organization. */
  stringId: string;
  name: string;
  description: string;
  dateCreated: Date;
  deactivated: boolean;
  emailAuthEnabled: boolean;
  jwtKey: string | null;
  emptyTopicDisplayName: string;
  mandatoryTopics: boolean;
  messageContentDeleteLimitSeconds: number | null;
  waitingPeriodThreshold: number;
  nameChangesDisabled: boolean;
  emailChangesDisabled: boolean;
  permissions: Record<string, GroupRef>;
}

export interface User {
  id: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  isImportedStub: boolean;
  timezone: string;
  dateJoined: Date;
  avatarVersion: number;
  passwordHash: string | null;
  maxMessageId: number;
}

export const BOT_TYPE_GENERIC = 1;
