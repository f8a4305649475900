import { ConfabError } from '@confab/errors';

/** Zulip's push errors (zerver/lib/push_notifications.py, zerver/lib/exceptions.py), with their exact texts. */
export const noActivePushDevice = () =>
  new ConfabError('No active registered push device', { code: 'NO_ACTIVE_PUSH_DEVICE', status: 400 });

export const adminActionRequired = () =>
  new ConfabError('Push notification configuration issue on server, contact the server administrator or retry later.', {
    code: 'ADMIN_ACTION_REQUIRED',
    status: 403,
  });

export const failedToConnectBouncer = () =>
  new ConfabError('Network error while connecting to Zulip push notification service.', {
    code: 'FAILED_TO_CONNECT_BOUNCER',
    status: 502,
  });

export const internalServerErrorOnBouncer = () =>
  new ConfabError('Internal server error on Zulip push notification service, retry later.', {
    code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    status: 502,
  });

export const pushServiceNotConfigured = () =>
  new ConfabError('Server is not configured to use push notification service.', {
    code: 'PUSH_SERVICE_NOT_CONFIGURED',
  });

export const deviceNotRecognized = () =>
  new ConfabError('Device not recognized', { code: 'INVALID_PUSH_DEVICE_TOKEN' });
