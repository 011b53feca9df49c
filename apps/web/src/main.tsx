import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { embedIdFrom } from './lib/embed';
import { Embed } from './pages/Embed';
import './styles.css';

// `?embed=<guided id>` or `#/embed/<id>`: the embed of one guided experiment instead of the lab
const embedId = embedIdFrom(window.location.search, window.location.hash);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {embedId !== null ? <Embed id={embedId} /> : <App />}
  </StrictMode>,
);
