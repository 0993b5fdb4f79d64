pub mod code_action;
pub mod code_action_repair;
pub mod execute_command;
pub mod hover;
pub mod initialize;
pub mod shutdown;
