import { mount } from './mount';
import './styles.css';

let root = document.getElementById('root');
if (!root) {
  root = document.createElement('div');
  root.id = 'root';
  document.body.appendChild(root);
}
mount(root);
