// Start-up marks (the e2e start-up bench reads them): when the bundle began
// to run, when the view was mounted, when the first session arrived and
// was painted.
performance.mark('govibe/script');
import { mount } from './mount';
import './styles.css';

let root = document.getElementById('root');
if (!root) {
  root = document.createElement('div');
  root.id = 'root';
  document.body.appendChild(root);
}
mount(root);
