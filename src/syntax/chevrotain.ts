/**
 * The parts of Chevrotain that qsfilter uses, and the one module of `src/` that imports
 * it. The build makes this module an entry point of its own (see `tsup.config.ts`), so
 * that in `dist/` Chevrotain sits in a chunk of its own, which `dist/index.js` imports:
 * an app's bundler then leaves that whole file out when the app uses nothing that
 * parses (the package has no side effects), where a copy inside `dist/index.js` would
 * stay, since its top-level statements have effects a bundler cannot rule out.
 */
export { createToken, EmbeddedActionsParser, Lexer, type ILexerConfig, type IParserConfig, type IParserErrorMessageProvider, type IRecognitionException, type IToken, type TokenType } from 'chevrotain';
