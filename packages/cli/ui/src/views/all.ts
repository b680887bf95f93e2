// Every view registers itself on import, in tab order.
import './tree/index.js';
import './sessions/index.js';
import './traffic/index.js';
import './history/index.js';
