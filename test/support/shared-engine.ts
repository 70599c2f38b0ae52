/** Where the run's shared engine listens and which it is, as `<kind> <endpoint>` (set by the global setup). */
export const SHARED_ENGINE_ENV = 'SINGLE_TABLE_TEST_ENGINE';
