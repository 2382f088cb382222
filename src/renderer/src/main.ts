import { mount } from 'svelte';
import App from './app.svelte';
import './styles/global.css';
import { unexpected } from './stores/unexpected.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('The page has no #app element to mount Verbatim in.');

// From the first line on, a failure nothing catches is shown and logged, never lost.
unexpected.listen(window);

export default mount(App, { target });
