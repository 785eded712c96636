import { describeSmoke, useScratchApp } from './smoke';

// The smoke suite on the Node that runs the tests: CI runs it on each of 22, 24 and 26.
describeSmoke('node', useScratchApp());
