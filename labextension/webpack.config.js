// Merged into @jupyterlab/builder's config. Module ids from module names, not hashes of
// identifiers: the module-federation container's identifier holds absolute paths, which made
// the built files differ between checkouts.
module.exports = {
  optimization: { moduleIds: 'named' }
};
