// Jest's module runtime with V8's code cache: Jest gives every test file a module registry of its
// own, so each file compiles every module it loads again (vm.compileFunction, which V8's in-memory
// compilation cache does not serve), about a second of CPU per API e2e file for the app's few
// thousand modules. This runtime hands V8 the code cache of an earlier compilation of the same
// transformed source (kept in memory per worker and on disk in Jest's cache directory), so V8
// deserialises instead of parsing. What runs is unchanged: V8 checks a cache against the source
// and its own version and flags, and compiles afresh (and replaces the cache) when it refuses one.
// Only the compilation changes, in Jest's own ModuleExecutor; if a Jest upgrade moves it, the runtime
// falls back to Jest's compilation (tools/jest/code-cache-runtime.spec.ts fails then).
// JEST_CODE_CACHE=0 turns it off (to compare); JEST_CODE_CACHE_STATS=1 prints each worker's
// hits, misses and refusals as it exits.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

const memory = new Map();

function cacheFile(directory, filename, source) {
  const hash = crypto
    .createHash('sha1')
    .update(process.version)
    .update('\0')
    .update(filename)
    .update('\0')
    .update(source)
    .digest('hex');
  return path.join(directory, hash.slice(0, 2), hash);
}

// Each module's last source and its cache file, per worker: a module's hash (SHA-1 over its whole
// text) is computed once per worker, not again for every test file that loads it (3,500 modules
// an API e2e file; a comparison with the last source is far cheaper than hashing it again).
const cacheFiles = new Map();

function cacheFileOf(directory, filename, source) {
  const key = `${directory}\0${filename}`;
  const known = cacheFiles.get(key);
  if (known !== undefined && known.source === source) return known.file;
  const file = cacheFile(directory, filename, source);
  cacheFiles.set(key, { source, file });
  return file;
}

function readCache(file) {
  const known = memory.get(file);
  if (known !== undefined) return known;
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(file, data) {
  memory.set(file, data);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Two workers may write the same entry: each writes its own file and renames it into place.
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs the next file a compilation.
  }
}

const stats = { hits: 0, misses: 0, rejected: 0 };

class CodeCacheRuntime extends Runtime {
  constructor(config, environment, ...rest) {
    super(config, environment, ...rest);
    const executor = this.executor;
    if (process.env.JEST_CODE_CACHE === '0') return;
    if (executor === undefined || typeof executor.compile !== 'function') return;
    const directory = path.join(config.cacheDirectory, 'v8-code-cache');
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      if (vmContext == null || executor.resolution.isCoreModule(filename)) {
        return jestCompile(scriptSource, filename);
      }
      const file = cacheFileOf(directory, filename, scriptSource);
      const cachedData = readCache(file);
      let compiled;
      try {
        compiled = vm.compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename,
          cachedData,
          produceCachedData: cachedData === undefined,
          importModuleDynamically: (specifier, _function, importAttributes, ...more) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, more[0]),
          parsingContext: vmContext,
        });
      } catch {
        // Jest's own compilation reports the error as Jest does.
        return jestCompile(scriptSource, filename);
      }
      if (cachedData === undefined) {
        stats.misses += 1;
        if (compiled.cachedData !== undefined) writeCache(file, compiled.cachedData);
      } else if (compiled.cachedDataRejected === true) {
        stats.rejected += 1;
        memory.delete(file);
        fs.rmSync(file, { force: true });
      } else {
        stats.hits += 1;
        memory.set(file, cachedData);
      }
      return compiled;
    };
  }
}

if (process.env.JEST_CODE_CACHE_STATS === '1') {
  process.on('exit', () => process.stderr.write(`[code-cache] ${JSON.stringify(stats)}\n`));
}

module.exports = CodeCacheRuntime;
