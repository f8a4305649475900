import { EMAIL_VISIBILITY_VALUES } from '../domain/email-visibility.js';
import { p, Param, ParamIssue, t, type ParamDefs } from '@confab/http';
import { SETTINGS, type SettingSpec } from '../domain/settings-catalog.js';
import { isValidTimezone } from '../domain/validators.js';

/** Zulip's check_int_in / check_string_in complaint, as its typed_endpoint words a validator's ValueError. */
const NOT_IN_LIST = 'Invalid {var_name}: Value error, Not in the list of possible values';

/** A raw (non-JSON) string parameter that must pass `check`, which returns an error template or nothing. */
function checkedString(check: (raw: string) => string | undefined): Param<string | undefined> {
  return new Param<string>((raw) => {
    const template = check(raw);
    if (template !== undefined) throw new ParamIssue('custom', [], { template });
    return raw;
  }).optional();
}

function settingParam(spec: SettingSpec): Param<unknown> {
  const kind = spec.kind;
  switch (kind.type) {
    case 'bool':
      return p.bool().optional();
    case 'int': {
      const { choices } = kind;
      const schema = choices
        ? t.refine(t.int(), (v) => (choices.includes(v) ? undefined : NOT_IN_LIST))
        : t.int({ min: kind.min, max: kind.max });
      return p.json(schema).optional();
    }
    case 'str': {
      const { choices, enumMessage } = kind;
      return choices
        ? checkedString((raw) => (choices.includes(raw) ? undefined : (enumMessage ?? NOT_IN_LIST)))
        : p.string().optional();
    }
  }
}

const targetUsers = t.refine(
  t.object(
    {
      user_ids: t.optional(t.list(t.int()), []),
      group_ids: t.optional(t.list(t.int()), []),
      skip_if_already_edited: t.bool(),
    },
    { extra: 'ignore' },
  ),
  (v) =>
    v.user_ids.length === 0 && v.group_ids.length === 0 ? 'Either user_ids or group_ids must be provided.' : undefined,
);

/**
 * PATCH /settings's parameters. Zulip's view declares them alphabetically and reports the first invalid one, so
 * they are parsed in that order here too.
 */
export const SETTINGS_PARAMS: ParamDefs = Object.fromEntries(
  Object.entries({
    ...Object.fromEntries(SETTINGS.map((spec) => [spec.name, settingParam(spec)])),
    full_name: p.string({ nulCheckedByDomain: true }).optional(),
    email: p.string().optional(),
    old_password: p.string().optional(),
    new_password: p.string().optional(),
    target_users: p.json(targetUsers).optional(),
    email_address_visibility: p.json(t.literal(...EMAIL_VISIBILITY_VALUES)).optional(),
    timezone: checkedString((raw) =>
      isValidTimezone(raw) ? undefined : 'Invalid {var_name}: Value error, Not a recognized time zone',
    ),
  }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);
