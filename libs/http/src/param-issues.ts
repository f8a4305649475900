import { ConfabError } from '@confab/errors';

/** Validation failures of request parameters and their Zulip texts (typed_endpoint's error templates). */

/** A position inside a JSON value: object keys and list indexes. */
export type Loc = readonly (string | number)[];

type IssueType =
  | 'int_type'
  | 'bool_type'
  | 'float_type'
  | 'string_type'
  | 'list_type'
  | 'dict_type'
  | 'literal_error'
  | 'string_too_long'
  | 'string_too_short'
  | 'blank'
  | 'too_small'
  | 'too_large'
  | 'extra_forbidden'
  | 'json_invalid'
  | 'missing'
  | 'custom';

/** A validation failure at `loc`; turned into Zulip's message once the parameter's name is known. */
export class ParamIssue extends Error {
  constructor(
    readonly type: IssueType,
    readonly loc: Loc,
    readonly ctx: { maxLength?: number; argument?: string; template?: string } = {},
  ) {
    super(type);
  }
}

const TEMPLATES: Record<Exclude<IssueType, 'custom'>, string> = {
  int_type: '{var_name} is not an integer',
  bool_type: '{var_name} is not a boolean',
  float_type: '{var_name} is not a float',
  string_type: '{var_name} is not a string',
  list_type: '{var_name} is not a list',
  dict_type: '{var_name} is not a dict',
  literal_error: 'Invalid {var_name}',
  string_too_long: '{var_name} is too long (limit: {max_length} characters)',
  string_too_short: '{var_name} is too short.',
  blank: '{var_name} cannot be blank',
  too_small: '{var_name} is too small',
  too_large: '{var_name} is too large',
  extra_forbidden: 'Argument "{argument}" at {var_name} is unexpected',
  json_invalid: '{var_name} is not valid JSON',
  missing: "Missing '{var_name}' argument",
};

/** `draft` + ["type"] → `draft["type"]`, `to` + [0] → `to[0]`, as Zulip writes nested locations. */
export function varName(name: string, loc: Loc): string {
  return name + loc.map((part) => `[${JSON.stringify(part)}]`).join('');
}

export function issueToError(name: string, issue: ParamIssue): ConfabError {
  const var_name = varName(name, issue.loc);
  const template = issue.type === 'custom' ? (issue.ctx.template ?? 'Invalid {var_name}') : TEMPLATES[issue.type];
  const msg = template
    .replaceAll('{var_name}', var_name)
    .replaceAll('{max_length}', String(issue.ctx.maxLength ?? ''))
    .replaceAll('{argument}', issue.ctx.argument ?? '');
  return new ConfabError(msg);
}
