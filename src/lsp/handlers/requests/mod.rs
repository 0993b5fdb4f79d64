pub mod code_action;
pub mod execute_command;
pub mod hover;
pub mod initialize;
pub mod shutdown;
