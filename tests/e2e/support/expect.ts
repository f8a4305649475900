import type { ApiResponse } from '@confab/devkit';
import { describedBy, openApiErrors } from './openapi';

/**
 * A successful Zulip response that also conforms to Zulip's OpenAPI description. Endpoints newer than the
 * description (feature level ~420) say so with `undocumented: true` and are checked field by field instead.
 */
export function expectSuccess(
  response: ApiResponse,
  method: string,
  path: string,
  options: { undocumented?: boolean } = {},
): void {
  expect({ status: response.status, result: response.body.result, msg: response.body.msg }).toEqual({
    status: 200,
    result: 'success',
    msg: '',
  });
  if (options.undocumented) expect(describedBy(method, path, 200)).toBe(false);
  else expect(openApiErrors(method, path, 200, response.body)).toEqual([]);
}

/** A Zulip error envelope with this status, code and message (and optionally extra fields). */
export function expectError(
  response: ApiResponse,
  status: number,
  code: string,
  msg: string,
  extra: Record<string, unknown> = {},
): void {
  expect({
    status: response.status,
    result: response.body.result,
    code: response.body.code,
    msg: response.body.msg,
  }).toEqual({
    status,
    result: 'error',
    code,
    msg,
  });
  for (const [key, value] of Object.entries(extra)) expect(response.body[key]).toEqual(value);
}
