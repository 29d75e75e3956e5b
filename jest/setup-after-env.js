// Taro's page hooks (usePageScroll, useReachBottom, ...) read React from the framework runtime, which the
// generated app entry fills in at start-up. Components under test get the same wiring here.
const React = require('react')
const ReactDOM = require('react-dom')
const { createReactApp, connectReactPage } = require('@tarojs/plugin-framework-react/dist/runtime')

createReactApp(() => null, React, ReactDOM, { router: { mode: 'browser' }, pages: [] })
connectReactPage(React, 'jest-page')

afterEach(() => {
  jest.useRealTimers()
})
