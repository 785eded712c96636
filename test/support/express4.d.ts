/**
 * Express 4, installed as `express4` (an npm alias) beside Express 5, for the tests that
 * run `qsfilter/express` on both. Typed as Express 5: the middleware's own types are
 * Express 5's, and what the tests use of the app is the same in both.
 */
declare module 'express4' {
  import express = require('express');
  export = express;
}
