/** Zulip's parse_user_agent: the product name before the first "/" or version. */
export function clientName(userAgent: string | undefined, explicit: string | undefined): string {
  if (explicit) return explicit;
  if (!userAgent) return 'Unspecified';
  const match = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/.exec(userAgent);
  const name = match?.groups?.name?.trim();
  return name ? name : 'Unspecified';
}

/** Zulip's Client.default_read_by_sender: messages from full Zulip UIs start read for their sender. */
export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return (
    [
      'zulipandroid',
      'zulipios',
      'zulipdesktop',
      'zulipmobile',
      'zulipelectron',
      'zulipterminal',
      'snipe',
      'website',
      'ios',
      'android',
    ].includes(name) || name.includes('desktop app')
  );
}
