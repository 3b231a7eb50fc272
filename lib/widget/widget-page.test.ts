import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildWidget, gzippedBytes, WIDGET_BUDGET } from '@/scripts/build-widget';
import { loaderScript } from './loader-script';
import { widgetMissingHtml, widgetPageHtml } from './widget-page';

describe('widget page and embed script', () => {
  it('fills the page from components/widget/chat.html with the name escaped, and nothing inline', () => {
    const html = widgetPageHtml({ appId: 3101, name: 'Acme <b>"support"</b> & co' });
    assert.match(html, /<body data-app="3101">/);
    assert.match(html, /<title>Chat: Acme &#60;b&#62;&#34;support&#34;&#60;\/b&#62; &#38; co<\/title>/);
    assert.doesNotMatch(html, /\{\{|<!--|<b>/);
    for (const tag of html.match(/<script[^>]*>/g) ?? []) assert.match(tag, /src="\/widget\/chat\.js"/);
    assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/i);
    assert.match(widgetMissingHtml(), /Chat not found/);
  });

  it('writes the app configuration into the compiled embed script, with < escaped', async () => {
    // Built in memory: the test leaves the build's files (and their times, which npm start reads) alone.
    const { loaderJs } = await buildWidget({ write: false });
    const script = loaderScript(
      { base: 'https://chat.example.com', appId: 7, origins: ['https://shop.example.com'], name: '</script>' },
      loaderJs,
    );
    assert.doesNotMatch(script, /VA_CHAT_CONFIG|<\/script>/);
    assert.ok(
      script.includes('{"base":"https://chat.example.com","appId":7,"origins":["https://shop.example.com"],"name":"\\u003c/script>"}'),
    );
  });

  it('keeps both scripts within their gzipped budget (the build refuses a script over it)', async () => {
    const { chatJs, loaderJs } = await buildWidget({ write: false });
    assert.ok(gzippedBytes(chatJs) <= WIDGET_BUDGET.chatJs, `page script ${gzippedBytes(chatJs)} B`);
    assert.ok(gzippedBytes(loaderJs) <= WIDGET_BUDGET.loaderJs, `embed script ${gzippedBytes(loaderJs)} B`);
    assert.ok(gzippedBytes(chatJs) > 1_000, 'the page script was built');
  });
});
