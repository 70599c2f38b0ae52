/** Where the run's shared engine listens and which it is, as `<kind> <endpoint>` (set by the global setup). */
export const SHARED_ENGINE_ENV = 'SINGLE_TABLE_TEST_ENGINE';

/** The folder of the run's synthesized templates, one file per manifest (set by the global setup, in the run's temporary folder). */
export const TEMPLATE_CACHE_ENV = 'SINGLE_TABLE_TEST_TEMPLATES';
