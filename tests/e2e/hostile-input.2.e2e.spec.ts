import { hostileInputSuite } from './support/hostile-input';

hostileInputSuite(2);
