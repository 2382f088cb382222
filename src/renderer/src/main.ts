import { mount } from 'svelte';
import App from './app.svelte';
import './styles/global.css';

const target = document.getElementById('app');
if (!target) throw new Error('The page has no #app element to mount Verbatim in.');

export default mount(App, { target });
