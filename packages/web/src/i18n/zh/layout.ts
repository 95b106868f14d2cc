/** The frame around every page: navbar, tabs, settings panel, error log. */
export const navbar = {
  toggleSidebar: '展开/收起侧边栏',
  dashboard: '首页',
  profile: '个人中心',
  logOut: '退出登录',
  size: '布局大小',
  language: '语言',
  fullscreen: '全屏',
  exitFullscreen: '退出全屏',
  errorLog: '错误日志',
  search: '搜索菜单',
  searchPlaceholder: '输入菜单名称、拼音或路径',
  noMatch: '没有匹配的菜单',
} as const;

export const size = {
  default: '默认',
  medium: '中等',
  small: '小',
  mini: '迷你',
} as const;

export const tagsView = {
  refresh: '刷新',
  close: '关闭',
  closeOthers: '关闭其它',
  closeAll: '关闭所有',
} as const;

export const settings = {
  open: '系统布局配置',
  title: '系统布局配置',
  theme: '主题色',
  tagsView: '开启标签页',
  fixedHeader: '固定顶栏',
  sidebarLogo: '侧边栏 Logo',
  pinyinSearch: '菜单搜索支持拼音',
} as const;

export const errorLog = {
  title: '错误日志',
  clearAll: '全部清除',
  empty: '暂无错误',
  message: '信息',
  component: '组件',
  info: '详情',
  url: '地址',
  stack: '调用栈',
  time: '时间',
  fallback: '页面出错了：{{message}}',
} as const;
