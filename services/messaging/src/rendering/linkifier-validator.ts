import { compileLinkifier, isValidTemplate, LinkifierError, templateVariables } from '@confab/markdown';
import type { LinkifierValidator } from '../domain/realm-content-store.js';

/** The domain's LinkifierValidator over `@confab/markdown`, which also applies linkifiers when rendering. */
export const markdownLinkifierValidator: LinkifierValidator = {
  check(pattern, urlTemplate) {
    try {
      compileLinkifier({ pattern, urlTemplate });
      return null;
    } catch (err) {
      if (err instanceof LinkifierError) return { field: err.field, message: err.message };
      throw err;
    }
  },
  variables: (urlTemplate) => (isValidTemplate(urlTemplate) ? templateVariables(urlTemplate) : null),
};
