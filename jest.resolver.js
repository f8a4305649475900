// Resolves a relative './x.js' import to './x.ts' when only the TypeScript source exists (tests run sources
// directly), and leaves every other request, including those inside dependencies, to jest's default resolver.
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (err) {
    if (/^\.{1,2}\//.test(request) && request.endsWith('.js')) {
      return options.defaultResolver(`${request.slice(0, -3)}.ts`, options);
    }
    throw err;
  }
};
